package pilot

import (
	"context"

	"github.com/waymark-dev/waymark/calls"
)

// Caller sends one call of a session, JSON in and out: the daemon client,
// or the daemon's handler in-process (sessions.Manager).
type Caller interface {
	Call(ctx context.Context, session, method string, params, result any) error
}

// Over returns a Driver that sends each call through c for the session:
// the pilot (and the model key) stays in the caller's process while the
// browser stays where c leads.
func Over(c Caller, session string) Driver { return overCaller{c, session} }

type overCaller struct {
	c       Caller
	session string
}

func callOver[R any](ctx context.Context, d overCaller, method string, params any) (*R, error) {
	var r R
	if err := d.c.Call(ctx, d.session, method, params, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

func (d overCaller) Open(ctx context.Context, req calls.OpenRequest) (*calls.PageInfo, error) {
	return callOver[calls.PageInfo](ctx, d, calls.MethodOpen, req)
}

func (d overCaller) Snapshot(ctx context.Context, req calls.SnapshotRequest) (*calls.Snapshot, error) {
	return callOver[calls.Snapshot](ctx, d, calls.MethodSnapshot, req)
}

func (d overCaller) Act(ctx context.Context, req calls.ActRequest) (*calls.Outcome, error) {
	return callOver[calls.Outcome](ctx, d, calls.MethodAct, req)
}

func (d overCaller) Get(ctx context.Context, req calls.GetRequest) (*calls.GetResult, error) {
	return callOver[calls.GetResult](ctx, d, calls.MethodGet, req)
}

func (d overCaller) Screenshot(ctx context.Context, req calls.ScreenshotRequest) (*calls.Image, error) {
	return callOver[calls.Image](ctx, d, calls.MethodScreenshot, req)
}

func (d overCaller) Locate(ctx context.Context, req calls.LocateRequest) (*calls.Evidence, error) {
	return callOver[calls.Evidence](ctx, d, calls.MethodLocate, req)
}

func (d overCaller) Find(ctx context.Context, req calls.FindRequest) (*calls.Resolution, error) {
	return callOver[calls.Resolution](ctx, d, calls.MethodFind, req)
}
