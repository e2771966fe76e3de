// Package keys turns the keys a user names on the command line ("Enter",
// "Control+A", "Shift+Tab") and the text they type into the key events of the
// Chrome DevTools Protocol, as a US keyboard would produce them.
//
// [Press] reads a key or chord and returns its [input.DispatchKeyEventParams];
// [Type] returns the [Step]s that type a string; [Send] sends steps on a
// session. The key data comes from chromedp's kb package.
package keys
