package mcp

import (
	"context"
	"fmt"
	"path/filepath"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/capture"
)

// The capture tool starts and stops the session's network capture and
// writes it, redacted, where the client says (see `waymark capture`).

// captureOut answers capture: what a stop wrote (a start says only that
// the capture runs).
type captureOut struct {
	Capturing bool   `json:"capturing"`
	File      string `json:"file,omitempty"`
	HAR       string `json:"har,omitempty"`
	Requests  int    `json:"requests,omitempty"`
	Frames    int    `json:"frames,omitempty"`
	State     int    `json:"state,omitempty" jsonschema:"cookies and storage values"`
	Dropped   int    `json:"dropped,omitempty" jsonschema:"not kept: over the capture's bounds"`
}

type captureIn struct {
	Action string `json:"action"`
	File   string `json:"file,omitempty"`
	HAR    string `json:"har,omitempty"`
}

// registerCapture adds the capture tool.
func (t *tools) registerCapture(s *sdk.Server) {
	add(s, "capture", "Record the network (redacted) until stop.", func(ctx context.Context, _ *sdk.CallToolRequest, in captureIn) (string, captureOut, error) {
		switch in.Action {
		case "start":
			if _, err := t.s.StartCapture(ctx, calls.CaptureStartRequest{}); err != nil {
				return "", captureOut{}, err
			}
			return "capturing the session's network; stop with action stop and a file", captureOut{Capturing: true}, nil
		case "stop":
			if in.File == "" {
				return "", captureOut{}, calls.Errorf(calls.ErrBadInput, "give file: where the capture goes", "stop needs a file")
			}
			// Written before the capture ends, so a file that cannot be
			// written loses nothing.
			res, err := t.s.StopCapture(ctx, calls.CaptureStopRequest{Keep: true, HAR: in.HAR != ""})
			if err == nil {
				err = writeCaptureFiles(in.File, in.HAR, res)
			}
			if err == nil {
				res, err = t.s.StopCapture(ctx, calls.CaptureStopRequest{HAR: in.HAR != ""})
			}
			if err == nil {
				err = writeCaptureFiles(in.File, in.HAR, res)
			}
			if err != nil {
				return "", captureOut{}, err
			}
			return fmt.Sprintf("captured %d requests, %d frames, %d state values to %s (not kept: %d)",
					res.Exchanges, res.Messages, res.State, in.File, res.Dropped),
				captureOut{File: in.File, HAR: in.HAR, Requests: res.Exchanges, Frames: res.Messages, State: res.State, Dropped: res.Dropped}, nil
		}
		return "", captureOut{}, calls.Errorf(calls.ErrBadInput, "action is start or stop", "unknown action %q", in.Action)
	})
}

func writeCaptureFiles(file, har string, res *calls.CaptureStopResult) error {
	for _, w := range []struct {
		path string
		data []byte
	}{{file, res.Capture}, {har, res.HAR}} {
		if w.path == "" {
			continue
		}
		abs, err := filepath.Abs(w.path)
		if err == nil {
			err = capture.WriteFile(abs, w.data)
		}
		if err != nil {
			return calls.Errorf(calls.ErrBadInput, "give a path you can write; the capture goes on", "cannot write %s: %v", w.path, err)
		}
	}
	return nil
}
