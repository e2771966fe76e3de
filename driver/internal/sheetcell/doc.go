// Package sheetcell checks the cells a sheet write names, as a user's
// input: ranges and cell references, values typing can put in one cell,
// formulas that make the app fetch (a send, which needs approval), and
// what the approval of a fill shows and is bound to.
//
// It is one of the driver's feature rooms (driver/doc.go, Layout): it
// never imports driver. Driving the spreadsheet (the name box, the keys,
// the clipboard) and asking for the approval are the core's
// (driver/sheet*.go, the send gate); this package judges values.
package sheetcell
