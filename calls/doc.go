// Package calls holds the calls a front (the CLI, the daemon, the MCP
// server, the pilot) makes of a browser session: one request and one
// result struct per call, the method names they travel under, and the
// categories of failure with their wire codes. It has no browser code, so
// the pilot can depend on it without pulling in the DevTools protocol.
package calls
