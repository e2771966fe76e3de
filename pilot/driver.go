package pilot

import (
	"context"

	"github.com/waymark-dev/waymark/calls"
)

// Driver is what the pilot needs of a browser session. The in-process
// *driver.Session and the daemon client's session both satisfy it.
type Driver interface {
	Open(ctx context.Context, req calls.OpenRequest) (*calls.PageInfo, error)
	Snapshot(ctx context.Context, req calls.SnapshotRequest) (*calls.Snapshot, error)
	Act(ctx context.Context, req calls.ActRequest) (*calls.Outcome, error)
	Get(ctx context.Context, req calls.GetRequest) (*calls.GetResult, error)
	Screenshot(ctx context.Context, req calls.ScreenshotRequest) (*calls.Image, error)
	Locate(ctx context.Context, req calls.LocateRequest) (*calls.Evidence, error)
	Find(ctx context.Context, req calls.FindRequest) (*calls.Resolution, error)
}
