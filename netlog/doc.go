// Package netlog reads Chromium's NetLog and sums it up without secrets.
//
// Chromium writes a NetLog (chrome://net-export, or the --log-net-log=FILE
// flag) as one JSON object: its constants (the names of event types, source
// types and net errors) and then its events, one a line. The wire below
// DevTools is in it: DNS lookups, TCP connects, TLS handshakes, HTTP/2
// sessions, proxies, and the net error a request died of before any HTTP
// answer, which DevTools often does not show.
//
// [NewReader] streams the events of a log, and a log cut short (a crashed
// browser, or one still writing) is read as far as it goes: [Reader.Next]
// then returns [ErrTruncated]. [Summarize] turns the events into a
// [Summary]: every request with its method, URL without query values,
// status, protocol, timing, the TLS of its connection and the error it
// died of; proxy and DNS events; errors counted by host. [Summary.Markdown]
// renders it for a person; the Summary marshals to JSON as it is.
//
// A summary holds no cookie, no header value and no query value: URLs keep
// their query keys only, a path segment that looks like a credential is
// masked, and of the response headers only the values of a few named
// signals (cf-mitigated, server) are kept. Chromium should be started with
// --net-log-capture-mode=Default, which strips cookies and credentials from
// the log itself; never IncludeSensitive or Everything.
//
// API maturity: new in this release; the Summary's fields may grow.
package netlog
