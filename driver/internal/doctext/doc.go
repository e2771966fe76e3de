// Package doctext drives a document editor as a hand does and reads its
// text as a copy gives it: which editor the page's document is, a read
// (select all, copy, the clipboard), an insert planned on the words read
// (after words, over a line, at the end), the caret put there and the
// text typed, then read back; plain lines, where words are, and where the
// lines an editor draws sit in the whole.
//
// It is one of the driver's feature rooms (driver/doc.go, Layout): it
// never imports driver. It acts on the page only through the core's
// [View] and elements (driver/internal/elem); registering a text typed as
// a secret before the first key, marking its editor after, and holding
// the page's form submissions while it types are the core's
// (driver/document.go, the send gate).
package doctext
