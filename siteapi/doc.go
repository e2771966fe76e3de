// Package siteapi learns the JSON call behind a list a page shows, and
// makes that call again from a tab of the site, with no page to read.
//
// [Learn] ranks the responses of a capture (package capture) by how much
// of the rows the browser read they hold, maps each row field to a place
// in the JSON, infers the pagination from the captured sequence, and
// traces each value the request sent to where the page got it: a
// constant, a meta tag, embedded state (__NEXT_DATA__), local storage, a
// cookie, an earlier response. Secrets in a capture are markers (see
// [capture.Marker]); a marker is traced by its hash. The [Recipe] it
// returns (format "waymark.api/1", schema/api.schema.json) keeps where
// each value comes from and never the value, so no recipe holds a secret:
// [Parse] refuses one that does.
//
// [Call] makes the recipe's request with fetch() from waymark's isolated
// world of a tab on the site (calls.Session.Fetch): the browser's own
// connection, cookies and client hints, each hop and redirect checked
// against the URL policy before it is sent, secret headers dropped on a
// hop to another origin. It reads every page, backs a host off for its
// Retry-After on a 429, checks the rows against the recipe's schema, and
// sends the last call's validators so an unchanged list costs one request.
// A failure carries its kind ([Kind]): auth, changed, rate, network or
// blocked-url. A recipe may name a sign-in routine (relogin): [Relogin]
// runs it once on an auth failure and calls again. [Verify] is how a learned recipe is kept: only when a
// direct call returns the rows the browser read.
//
// API maturity: new in this release; fields may grow.
package siteapi
