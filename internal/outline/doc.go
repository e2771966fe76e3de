// Package outline is the outline's text format: the tree of a page an agent
// reads ([Node]), its rendering one element a line in the family of
// Playwright's aria snapshots ([Render]), the changes between two renderings
// ([Diff]), and the reading of a rendered line back ([ParseLine], [Parse]).
//
// The package is free of DevTools types, so that every layer (the pilot, the
// replay, the rules model, the CLI) reads outline text through it. Package
// outline/build makes the tree from a DOMSnapshot; it alone imports cdproto.
package outline
