package rpc

import (
	"strconv"
	"strings"
)

// Methods the daemon answers itself or through its session manager, beside
// the page calls named in package calls (calls.MethodOpen and the rest).
const (
	MethodDaemonStatus    = "daemon.status"     // result: DaemonStatus
	MethodDaemonStop      = "daemon.stop"       // result: {}
	MethodSessionList     = "session.list"      // result: SessionList
	MethodSessionClose    = "session.close"     // closes the request's session; result: {}
	MethodSessionCloseAll = "session.close_all" // result: {}
)

// SessionInfo describes one open session.
type SessionInfo struct {
	Name string `json:"name"`
	Tabs int    `json:"tabs"`
	URL  string `json:"url"` // the current tab's URL
	// Batch says a batch's worker holds the session (WorkerSession): not
	// one a person opened.
	Batch bool `json:"batch,omitempty"`
}

// SessionList is the result of session.list.
type SessionList struct {
	Sessions []SessionInfo `json:"sessions"`
	// Hidden counts the batch workers' sessions a front left out of
	// Sessions (session list without --all).
	Hidden int `json:"hidden,omitempty"`
}

// workerPrefix begins the name of every session a batch's worker holds.
// The '+' is one a person's session name cannot hold (the CLI takes
// letters, digits, '.', '_' and '-'), so no session a person opened
// reads as a worker's, and none of a worker's shows as theirs.
const workerPrefix = "batch+"

// WorkerSession names the n-th session a batch worker opens on its
// endpoint ep: the one place worker sessions are named.
func WorkerSession(worker string, ep, n int) string {
	return workerPrefix + worker + "-" + strconv.Itoa(ep) + "-" + strconv.Itoa(n)
}

// IsWorkerSession says whether a session is a batch worker's (WorkerSession).
func IsWorkerSession(name string) bool { return strings.HasPrefix(name, workerPrefix) }

// DaemonStatus is the result of daemon.status.
type DaemonStatus struct {
	PID      int    `json:"pid"`
	Version  string `json:"version"`
	Socket   string `json:"socket"`
	UptimeMS int64  `json:"uptime_ms"`
	Browser  string `json:"browser"` // executable or CDP endpoint; empty before the first page call
	Sessions int    `json:"sessions"`
	// Settings are the settings the daemon read when it started; see
	// [Hello].Settings.
	Settings map[string]string `json:"settings,omitempty"`
}
