package rpc

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
}

// SessionList is the result of session.list.
type SessionList struct {
	Sessions []SessionInfo `json:"sessions"`
}

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
