// Package targets answers one question for every recorded step and every
// replay: is this the element that was meant? It works on the outline tree
// of the live page (package outline): it lists the locators that reach an
// element with their match counts, takes the element's fingerprint, and
// resolves a recorded locator and fingerprint on a changed page to found,
// moved, ambiguous, replaced or missing. It never presses anything and
// refuses to guess (DESIGN.md invariant 4).
package targets
