package pilot

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/pilotflags"
	"github.com/waymark-dev/waymark/siteapi"
)

// TestExtractLearnAPI: extract --learn-api learns from the session's
// capture (read and left running, Keep) and writes the recipe; with no
// capture running it says how to get one.
func TestExtractLearnAPI(t *testing.T) {
	capt := `{"format":"waymark.capture/1","started":"2026-12-01T00:00:00Z","stopped":"2026-12-01T00:01:00Z","exchanges":[{"id":"1","kind":"fetch","method":"GET","url":"http://shop.test/api/items","page":"http://shop.test/","status":200,"response_body":"{\"items\":[{\"title\":\"Go\"}]}","sent":"2026-12-01T00:00:01Z"}]}`
	var keep []bool
	capturing := true
	fc := &clitest.FakeCaller{Reply: func(method string, params any) (any, error) {
		if method == calls.MethodCaptureStop {
			if !capturing {
				return nil, calls.Errorf(calls.ErrBadInput, "", "session does not capture")
			}
			keep = append(keep, params.(calls.CaptureStopRequest).Keep)
			return calls.CaptureStopResult{Capture: []byte(capt)}, nil
		}
		return clitest.APIReply(method, params)
	}}
	c, _, _ := clitest.NewCommon(fc, false, false)
	opts := &ExtractOptions{PilotOptions: pilotflags.PilotOptions{Common: c}}
	path := filepath.Join(t.TempDir(), "items.api.json")
	if err := opts.learnAPIRun(context.Background(), []byte(`[{"title":"Go"}]`), path); err != nil {
		t.Fatal(err)
	}
	if r, err := siteapi.Load(path); err != nil || r.Request.URL != "http://shop.test/api/items" || !r.Learned.Verified {
		t.Errorf("recipe %+v, %v", r, err)
	}
	if len(keep) != 1 || !keep[0] {
		t.Errorf("capture stop calls with keep %v, want one that keeps it running", keep)
	}
	capturing = false
	err := opts.learnAPIRun(context.Background(), []byte(`[{"title":"Go"}]`), path)
	if !errors.Is(err, calls.ErrBadInput) || !strings.Contains(calls.Hint(err), "waymark capture start") {
		t.Errorf("no capture: %v (hint %q)", err, calls.Hint(err))
	}
}

// TestExtractLearnAPIWithoutACaptureReadsNothing: with no capture running,
// extract --learn-api refuses before it reads a page or asks a model (it
// read every page and called the model, then refused, leaving the tab on
// the last page).
func TestExtractLearnAPIWithoutACaptureReadsNothing(t *testing.T) {
	fc := &clitest.FakeCaller{Reply: func(method string, params any) (any, error) {
		if method == calls.MethodCaptureStop {
			return nil, calls.Errorf(calls.ErrBadInput, "", "session does not capture")
		}
		return clitest.APIReply(method, params)
	}}
	c, _, _ := clitest.NewCommon(fc, false, false)
	dir := t.TempDir()
	schema := filepath.Join(dir, "rows.schema.json")
	if err := os.WriteFile(schema, []byte(`{"type":"array","items":{"type":"object","properties":{"title":{"type":"string"}}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := &ExtractOptions{PilotOptions: pilotflags.PilotOptions{Common: c}, SchemaFile: schema, Pages: 3, LearnAPI: filepath.Join(dir, "items.api.json")}
	err := extractRun(context.Background(), opts)
	if !errors.Is(err, calls.ErrBadInput) || !strings.Contains(calls.Hint(err), "waymark capture start") {
		t.Fatalf("no capture: %v (hint %q)", err, calls.Hint(err))
	}
	for _, call := range fc.Calls {
		if call.Method != calls.MethodCaptureStop {
			t.Errorf("called %s before refusing", call.Method)
		}
	}
}
