package driver

import (
	"context"
	"reflect"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/netlogfile"
)

// NetLog sums up the browser's NetLog over a span of time (see
// calls.MethodNetLog). The log is the browser's, not the session's: a
// request of another session in the same span is in it too. So the
// summary is masked with every value any session of the browser typed as
// a secret (Browser.typed), not the session's alone: a passphrase one
// session's page put in a request's path was raw in another's summary.
func (s *Session) NetLog(ctx context.Context, req calls.NetLogRequest) (reply *calls.NetLogResult, err error) {
	defer s.masked(&reply, &err)
	s.settledLogs(ctx)
	reply, err = s.browser.netLog(ctx, req)
	if reply != nil && s.browser.typed.Len() > 0 {
		maskValue(&s.browser.typed, reflect.ValueOf(&reply), 0)
	}
	return reply, err
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
