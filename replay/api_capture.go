package replay

import (
	"context"
	"errors"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/capture"
	"github.com/waymark-dev/waymark/pilot"
)

// capturer is a driver that records the session's network
// (calls.Session's capture calls).
type capturer interface {
	StartCapture(ctx context.Context, req calls.CaptureStartRequest) (*calls.CaptureStarted, error)
	StopCapture(ctx context.Context, req calls.CaptureStopRequest) (*calls.CaptureStopResult, error)
}

// driverCapture captures through the driver, or is nil when it cannot. A
// capture the person started already is read and left running; one it
// starts, it stops.
func driverCapture(d pilot.Driver) CaptureFunc {
	c, ok := d.(capturer)
	if !ok {
		return nil
	}
	return func(ctx context.Context) (func(context.Context) (*capture.File, error), error) {
		own := true
		if _, err := c.StartCapture(ctx, calls.CaptureStartRequest{}); err != nil {
			if !errors.Is(err, calls.ErrBadInput) {
				return nil, err
			}
			own = false // the session captures already
		}
		return func(ctx context.Context) (*capture.File, error) {
			res, err := c.StopCapture(ctx, calls.CaptureStopRequest{Keep: !own})
			if err != nil {
				return nil, err
			}
			return capture.Parse(res.Capture)
		}, nil
	}
}
