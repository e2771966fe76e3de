package driver

import "strings"

// The DevTools protocol reports a failed command as a message, with no
// code the driver can rely on. The messages the driver acts on are matched
// here and nowhere else, so a Chromium that rewords one is fixed in one
// file (STYLE rule 12). Each predicate is false for a nil error.

// cdpSays reports whether err's message holds any of msgs.
func cdpSays(err error, msgs ...string) bool {
	if err == nil {
		return false
	}
	m := err.Error()
	for _, s := range msgs {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// nodeGone: the element's node is no longer in the document.
func nodeGone(err error) bool { return cdpSays(err, "No node with given id", "Could not find node") }

// notFocusable: DOM.focus on an element that cannot take the focus.
func notFocusable(err error) bool { return cdpSays(err, "not focusable") }

// notFileInput: DOM.setFileInputFiles on something other than <input type=file>.
func notFileInput(err error) bool { return cdpSays(err, "Node is not a file input") }

// noBox: the element has no layout box to point at (hidden, display:none).
func noBox(err error) bool {
	return cdpSays(err, "Could not compute content quads", "does not have a layout object")
}

// contextGone: the frame's JavaScript context went away under a call (the
// page navigated, the frame was removed).
func contextGone(err error) bool {
	return cdpSays(err, "Cannot find context", "Execution context was destroyed", "No frame for given id")
}

// objectGone: a remote object id no longer names an object (its group
// was released).
func objectGone(err error) bool { return cdpSays(err, "Could not find object with given id") }

// badSelector: querySelector refused a CSS selector.
func badSelector(err error) bool { return cdpSays(err, "not a valid selector") }

// storageDenied: the page's origin has no web storage (about:blank, data:).
func storageDenied(err error) bool { return cdpSays(err, "SecurityError", "denied") }

// pdfUnsupported: Page.printToPDF in a headed browser.
func pdfUnsupported(err error) bool { return cdpSays(err, "PrintToPDF is not implemented") }

// netError: a navigation that failed in the network stack (net::ERR_…).
func netError(err error) bool { return cdpSays(err, "net::") }

// noHistoryEntry: back or forward with no page in that direction.
func noHistoryEntry(err error) bool { return cdpSays(err, "history", "entry") }
