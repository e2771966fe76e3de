package driver

import (
	"errors"
	"testing"
)

// TestCDPMessages: each predicate knows its message, wrapped or not, and
// says nothing of a nil error or of another message.
func TestCDPMessages(t *testing.T) {
	tests := []struct {
		is  func(error) bool
		msg string
	}{
		{nodeGone, "No node with given id found (-32000)"},
		{nodeGone, "Could not find node with given id (-32000)"},
		{notFocusable, "Element is not focusable (-32000)"},
		{notFileInput, "Node is not a file input element (-32000)"},
		{noBox, "Could not compute content quads. (-32000)"},
		{contextGone, "Execution context was destroyed. (-32000)"},
		{badSelector, "SyntaxError: '##' is not a valid selector."},
		{storageDenied, "SecurityError: Failed to read the 'localStorage' property"},
		{pdfUnsupported, "PrintToPDF is not implemented (-32000)"},
		{netError, "page load error net::ERR_NAME_NOT_RESOLVED"},
	}
	for _, tt := range tests {
		if !tt.is(errors.New(tt.msg)) || !tt.is(errors.Join(errors.New("act"), errors.New(tt.msg))) {
			t.Errorf("%q is not recognised", tt.msg)
		}
		if tt.is(nil) || tt.is(errors.New("Target closed")) {
			t.Errorf("the predicate for %q matches nil or another message", tt.msg)
		}
	}
}
