// Package rpc is the daemon's wire protocol: JSON objects, one a line, over
// a Unix socket, opened by a hello from each side that carries the protocol
// and binary versions.
package rpc
