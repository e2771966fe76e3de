package pilot

import (
	"context"

	"github.com/waymark-dev/waymark/calls"
)

// Driver is what the pilot needs of a browser session: a subset of
// calls.Session, so the in-process *driver.Session and calls.Remote (a
// session reached through the daemon) both satisfy it. It stays narrow so
// that the pilot's fakes implement seven calls, not twenty-two, and so that
// it says what the pilot uses.
type Driver interface {
	Open(ctx context.Context, req calls.OpenRequest) (*calls.PageInfo, error)
	Snapshot(ctx context.Context, req calls.SnapshotRequest) (*calls.Snapshot, error)
	Act(ctx context.Context, req calls.ActRequest) (*calls.Outcome, error)
	Get(ctx context.Context, req calls.GetRequest) (*calls.GetResult, error)
	Screenshot(ctx context.Context, req calls.ScreenshotRequest) (*calls.Image, error)
	Locate(ctx context.Context, req calls.LocateRequest) (*calls.Evidence, error)
	Find(ctx context.Context, req calls.FindRequest) (*calls.Resolution, error)
}

var _ Driver = calls.Session(nil)
