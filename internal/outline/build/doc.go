// Package build turns one DOMSnapshot.captureSnapshot result into the
// outline tree (an [outline.Node]) an agent reads: elements with ARIA roles,
// accessible names, values and states. It is the only package that reads
// DevTools types to make an outline; package outline renders, diffs and
// parses the tree's text without them.
//
// The package computes roles (HTML-AAM) and names (the useful subset of
// accname) itself from the snapshot's DOM, layout and computed styles instead
// of asking Chromium for its accessibility tree: Accessibility.getFullAXTree
// costs about four times as much as captureSnapshot on a large page, and
// Outline+Render on the snapshot costs a few milliseconds. The price is that
// the roles and names are an approximation of Chromium's; the browser tests
// in this package measure the agreement on test pages and real-world pages.
//
// Outline makes no CDP calls: the driver calls captureSnapshot with Params,
// passes the result to Outline, and grafts out-of-process iframes (which are
// not in the snapshot) under their iframe node with Node.Offset.
package build
