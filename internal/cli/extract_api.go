package cli

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/capture"
	"github.com/waymark-dev/waymark/siteapi"
)

// learnAPI learns the site API call behind the rows an extract read
// (extract --learn-api FILE) from the session's capture, which is read and
// left running, and writes the recipe to path once a direct call returned
// the rows.
func (o *ExtractOptions) learnAPI(ctx context.Context, data json.RawMessage, path string) error {
	rows, err := rowsOf("the rows read", data)
	if err != nil {
		return err
	}
	s := o.session()
	res, err := s.StopCapture(ctx, calls.CaptureStopRequest{Keep: true})
	if err != nil {
		if errors.Is(err, calls.ErrBadInput) {
			return calls.Errorf(calls.ErrBadInput, "start a capture before the page loads the list ("+calls.Cmd("capture start")+", then "+calls.Cmd("reload")+"), and extract again with --learn-api",
				"no capture runs in this session, so no call behind the rows was seen")
		}
		return err
	}
	f, err := capture.Parse(res.Capture)
	if err != nil {
		return err
	}
	r, _, err := siteapi.LearnCall(ctx, s, f, rows, siteapi.LearnOptions{})
	if err != nil {
		return err
	}
	b, err := r.Marshal()
	if err != nil {
		return err
	}
	return writeFileAtomic(path, b, 0o644)
}
