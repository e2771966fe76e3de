// Package outline turns one DOMSnapshot.captureSnapshot result into the
// outline an agent reads: a tree of elements with ARIA roles, accessible
// names, values and states, rendered one element a line in the family of
// Playwright's aria snapshots.
//
// The package computes roles (HTML-AAM) and names (the useful subset of
// accname) itself from the snapshot's DOM, layout and computed styles instead
// of asking Chromium for its accessibility tree: Accessibility.getFullAXTree
// costs about four times as much as captureSnapshot on a large page, and
// Build+Render on the snapshot costs a few milliseconds. The price is that the
// roles and names are an approximation of Chromium's; the browser tests in
// this package measure the agreement on test pages and real-world pages.
//
// Build and Render make no CDP calls: the driver calls captureSnapshot with
// Params, passes the result to Build, and grafts out-of-process iframes (which
// are not in the snapshot) under their iframe node with Node.Offset.
package outline
