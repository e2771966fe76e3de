// Package sheetcell drives a spreadsheet as a hand does and checks the
// cells a sheet write names: going to a range (the name box, or a click
// and a shift-click), copying it and reading the clipboard, typing a
// cell and reading it back; ranges and cell references, values typing
// can put in one cell, formulas that make the app fetch (a send, which
// needs approval), and what the approval of a fill shows and is bound
// to.
//
// It is one of the driver's feature rooms (driver/doc.go, Layout): it
// never imports driver. It acts on the page only through the core's
// [View] and elements (driver/internal/elem); asking for a fill's
// approval, registering a secret before the first key and holding the
// page's form submissions while it types are the core's (driver/sheet*.go,
// the send gate).
package sheetcell
