package look

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
)

// A capture whose file cannot be written goes on, so nothing is lost; a
// good path then gets it and ends it.
func TestCaptureStopUnwritableKeepsCapturing(t *testing.T) {
	capturing := true
	c := &clitest.FakeCaller{Reply: func(method string, params any) (any, error) {
		if method != calls.MethodCaptureStop {
			return nil, errors.New("unexpected " + method)
		}
		if !capturing {
			return nil, calls.Errorf(calls.ErrBadInput, "", "session %q does not capture", "s1")
		}
		req := params.(calls.CaptureStopRequest)
		if !req.Keep {
			capturing = false
		}
		res := calls.CaptureStopResult{Capture: json.RawMessage(`{"format":"waymark.capture/1"}`), Exchanges: 2}
		if req.HAR {
			res.HAR = json.RawMessage(`{"log":{"version":"1.2"}}`)
		}
		return res, nil
	}}
	common, _, _ := clitest.NewCommon(c, false, false)
	dir := t.TempDir()
	err := captureStopRun(context.Background(), &CaptureOptions{Common: common, Op: "stop", File: filepath.Join(dir, "no", "such", "c.json")})
	if !errors.Is(err, calls.ErrBadInput) || !strings.Contains(calls.Hint(err), "still capturing") {
		t.Fatalf("stop to a missing folder: %v (hint %q), want bad_input saying the capture goes on", err, calls.Hint(err))
	}
	if !capturing {
		t.Fatal("the capture ended although its file could not be written")
	}
	file, har := filepath.Join(dir, "c.json"), filepath.Join(dir, "c.har")
	if err := captureStopRun(context.Background(), &CaptureOptions{Common: common, Op: "stop", File: file, HAR: har}); err != nil {
		t.Fatal(err)
	}
	if capturing {
		t.Error("the capture goes on after it was written")
	}
	for _, p := range []string{file, har} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v %v", p, fi, err)
		}
	}
}
