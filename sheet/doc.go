// Package sheet holds what waymark reads from a spreadsheet: a [Grid] of
// cells with their values and the formatting that tells a header (bold,
// fill), A1 references ([Ref], [Range]), and the tables found in a grid by
// their shape.
//
// The browser side (the name box, the clipboard) lives in the driver; this
// package is free of DevTools types so tables can be found in any grid,
// from a browser or from a test.
//
// API maturity: new in this release; fields may grow.
package sheet
