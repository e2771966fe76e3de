package replay

import (
	"context"
	"errors"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/capture"
)

// sessionCapture captures through the session. A capture the person
// started already is read and left running; one it starts, it stops.
func sessionCapture(c calls.Session) CaptureFunc {
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
