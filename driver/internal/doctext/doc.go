// Package doctext reads a document editor's text as a copy gives it:
// plain lines, where words are, what an insert names (after words, over a
// line, at the end) and where it lands, and where the lines an editor
// draws sit in the whole.
//
// It is one of the driver's feature rooms (driver/doc.go, Layout): it
// never imports driver. Driving the editor (the caret, the keys, the
// clipboard) is the core's (driver/document.go, doc_place.go); this
// package works on the text the core read.
package doctext
