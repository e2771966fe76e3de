// Package form holds the form's own rules, apart from the page: what a
// written value becomes for each input type (a date, a time, a month, a
// colour), how an answer the page refused is written again, how an answer
// matches an option or what a field holds, which cell or button of an
// open calendar reaches a day, the review of a multi-step form's pages,
// and the published definitions of applicant tracking systems
// (Greenhouse, Ashby) laid over the fields a look read.
//
// It is one of the driver's feature rooms (driver/doc.go, Layout): it
// never imports driver. Reading and filling a form's fields on the page
// (driver/form*.go) stay in the core, which acts on elements; this package
// gets values and, for a definition, a [Fetch] that asks from the page
// through the core's URL policy.
package form
