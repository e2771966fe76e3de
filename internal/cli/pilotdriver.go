package cli

import (
	"context"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/pilot"
)

// remoteDriver is the pilot's Driver over the daemon: each call goes over
// the socket, so the pilot (and the model key) stays in the CLI's process
// while the browser stays in the daemon.
type remoteDriver struct {
	c       Caller
	session string
}

var _ pilot.Driver = remoteDriver{}

func remoteCall[R any](ctx context.Context, d remoteDriver, method string, params any) (*R, error) {
	var r R
	if err := d.c.Call(ctx, d.session, method, params, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

func (d remoteDriver) Open(ctx context.Context, req calls.OpenRequest) (*calls.PageInfo, error) {
	return remoteCall[calls.PageInfo](ctx, d, calls.MethodOpen, req)
}

func (d remoteDriver) Snapshot(ctx context.Context, req calls.SnapshotRequest) (*calls.Snapshot, error) {
	return remoteCall[calls.Snapshot](ctx, d, calls.MethodSnapshot, req)
}

func (d remoteDriver) Act(ctx context.Context, req calls.ActRequest) (*calls.Outcome, error) {
	return remoteCall[calls.Outcome](ctx, d, calls.MethodAct, req)
}

func (d remoteDriver) Get(ctx context.Context, req calls.GetRequest) (*calls.GetResult, error) {
	return remoteCall[calls.GetResult](ctx, d, calls.MethodGet, req)
}

func (d remoteDriver) Screenshot(ctx context.Context, req calls.ScreenshotRequest) (*calls.Image, error) {
	return remoteCall[calls.Image](ctx, d, calls.MethodScreenshot, req)
}

func (d remoteDriver) Locate(ctx context.Context, req calls.LocateRequest) (*calls.Evidence, error) {
	return remoteCall[calls.Evidence](ctx, d, calls.MethodLocate, req)
}

func (d remoteDriver) Find(ctx context.Context, req calls.FindRequest) (*calls.Resolution, error) {
	return remoteCall[calls.Resolution](ctx, d, calls.MethodFind, req)
}
