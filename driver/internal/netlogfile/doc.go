// Package netlogfile reads the NetLog the browser writes for a session's
// question (calls.MethodNetLog): it makes the browser flush the file up to
// now, then sums up a span of it with package netlog.
//
// It is one of the driver's feature rooms (driver/doc.go, Layout): it
// never imports driver; the core hands it the browser's context and its
// error for a connection that failed.
package netlogfile
