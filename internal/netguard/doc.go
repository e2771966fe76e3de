// Package netguard is the HTTP proxy that stands between Chromium and the
// network, so that the browser connects only to addresses waymark checked.
//
// Why a proxy: waymark refuses navigations to private network addresses after
// resolving the host. If Chromium then resolved the name again itself, a name
// that answers with a public address the first time and a private one the
// second (DNS rebinding) would get through. With every browser context set to
// use this proxy (Target.createBrowserContext's proxyServer), Chromium never
// resolves a name: it hands the name to the proxy, and the proxy connects only
// to addresses that were checked, either pinned by the navigation check that
// just resolved the name ([Proxy.Pin]) or resolved and checked by
// [Options.Resolve] itself. There is one resolution, and it is the one that
// was checked.
//
// The proxy speaks the two forms Chromium sends to an HTTP proxy:
//
//   - CONNECT host:port, for https and WebSockets: the proxy dials a checked
//     address and splices bytes both ways; it never sees inside the TLS.
//   - absolute-form requests (GET http://host/path), for plain http: the proxy
//     forwards them with [net/http/httputil.ReverseProxy], adding no header of
//     its own, streaming bodies as they arrive and following no redirect.
//
// A refused host gets 403 Forbidden (a small HTML page for plain http) and is
// recorded in [Proxy.Refusals]: the proxy's own refusal, named as such. A
// site that fails (refuses the connection, resets it, does not answer)
// gets no answer made up by the proxy: the browser's connection is reset,
// so the page, the notices and the NetLog see a network error and not an
// HTTP status the site never sent, and what the site did is recorded in
// [Proxy.Failures]. A kept-alive upstream connection for plain
// http may serve later requests to the same host:port after that host's pin
// has expired; that is safe, because the address it is connected to was
// checked when it was dialed. Upstream connections are pooled per
// connection of the browser's (pools.go), never across them, so two
// browser contexts (two sessions) never reach a site on one connection.
//
// The proxy listens on 127.0.0.1 only. Chromium sends localhost names and
// loopback and link-local literals (127/8, ::1, 169.254/16 with the cloud
// metadata address, fe80::/10) straight to the network, around any proxy,
// unless the browser context's proxyBypassList holds "<-loopback>"; without
// it, those hosts never reach this proxy and are the caller's to judge
// (https://chromium.googlesource.com/chromium/src/+/HEAD/net/docs/proxy.md,
// "Implicit bypass rules", read 2026).
//
// This package is written by hand on the standard library: it is a few hundred
// lines of net/http and net/http/httputil, and no library waymark keeps does
// "connect only to checked addresses"; adding a general proxy library would
// bring far more surface than the checks need.
package netguard
