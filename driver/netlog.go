package driver

import (
	"context"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/netlogfile"
)

// NetLog sums up the browser's NetLog over a span of time (see
// calls.MethodNetLog). The log is the browser's, not the session's: a
// request of another session in the same span is in it too.
func (s *Session) NetLog(ctx context.Context, req calls.NetLogRequest) (*calls.NetLogResult, error) {
	s.settledLogs(ctx)
	return s.browser.netLog(ctx, req)
}

func (b *Browser) netLog(ctx context.Context, req calls.NetLogRequest) (*calls.NetLogResult, error) {
	file := b.NetLog()
	if file == "" {
		hint := "start the daemon with a NetLog: " + calls.Cmd("daemon restart --netlog FILE") + ", or [evidence] netlog = \"on-failure\" in waymark.toml"
		if b.attached {
			hint = "an attached browser logs only if it was started with --log-net-log; read its file with " + calls.Cmd("netlog summarize")
		}
		return nil, calls.Errorf(calls.ErrBadInput, hint, "the browser writes no NetLog")
	}
	return netlogfile.Read(ctx, b.ctx, file, req, browserErr)
}
