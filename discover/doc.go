// Package discover finds what a site publishes for machines, without
// browsing it (issue 18, parts 2 and 5):
//
//   - [Sitemap]: the site's pages, from the Sitemap lines of its
//     robots.txt, its /sitemap.xml (index files too, nested and gzipped,
//     all bounded), its /llms.txt, or, when it has none, a shallow crawl of
//     its own links, ranked by BM25 against the words of a query.
//   - [Candidates]: the machine-readable views a page declares or its
//     platform gives: feeds (RSS, Atom, JSON Feed), the JSON view of a
//     known platform (Shopify, WooCommerce, WordPress, Discourse, Next.js
//     data routes), detected from the page's markup and never guessed, and
//     the JSON GET endpoints of the site's OpenAPI description. Package
//     siteapi (api learn) ranks them against the rows the browser read.
//   - [ParseFeed]: a feed as rows (title, link, date, summary).
//
// # Transport
//
// Every request is the browser's own: a [Fetcher] is the session's in-tab
// fetch (calls.Session.Fetch, the browser's connection, cookies and TLS),
// not Go's net/http, so a site sees the same client the agent browses
// with, and the driver checks the URL policy and the private-network rule
// before each request is sent. The in-tab fetch does not follow a
// redirect; this package follows each hop itself (at most [maxHops]) after
// checking that it stays on the site's origin, passes the policy, and
// names no acting path.
//
// # What is never requested
//
// Probes are GET only, on the site's own origin (a sitemap or link to
// another origin, or to an address the policy refuses, is listed as
// skipped, not fetched), and never a path whose words act: delete, logout,
// sign out, pay, checkout, unsubscribe, remove, cancel and the like
// ([Acts]). Every input is bounded: bytes per document (after gunzip
// too), sitemaps read, index depth, URLs kept, crawl pages, depth and
// time.
package discover
