package pilot

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/capture"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/siteapi"
)

// learnAPI learns the site API call behind the rows an extract read
// (extract --learn-api FILE) from the session's capture, which is read and
// left running, and writes the recipe to path once a direct call returned
// the rows.
func (o *ExtractOptions) learnAPIRun(ctx context.Context, data json.RawMessage, path string) error {
	rows, err := cmdutil.RowsOf("the rows read", data)
	if err != nil {
		return err
	}
	res, err := o.readCapture(ctx)
	if err != nil {
		return err
	}
	f, err := capture.Parse(res.Capture)
	if err != nil {
		return err
	}
	r, _, err := siteapi.LearnCall(ctx, o.Remote(), f, rows, siteapi.LearnOptions{})
	if err != nil {
		return err
	}
	b, err := r.Marshal()
	if err != nil {
		return err
	}
	return cmdutil.WriteFileAtomic(path, b, 0o644)
}

// readCapture reads the session's capture and leaves it running; with
// none running it says how to start one. extract --learn-api asks it
// before reading any page too, so that a missing capture costs no model
// call and leaves the tab where it was.
func (o *ExtractOptions) readCapture(ctx context.Context) (*calls.CaptureStopResult, error) {
	res, err := o.Remote().StopCapture(ctx, calls.CaptureStopRequest{Keep: true})
	if errors.Is(err, calls.ErrBadInput) {
		return nil, calls.Errorf(calls.ErrBadInput, "start a capture before the page loads the list ("+calls.Cmd("capture start")+", then "+calls.Cmd("reload")+"), and extract again with --learn-api",
			"no capture runs in this session, so no call behind the rows can be seen")
	}
	return res, err
}
