package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// The capture tool is offered only when allowed; stop writes the file
// (0600) before the capture ends, and a path it cannot write leaves the
// capture running.
func TestCaptureTool(t *testing.T) {
	if names := toolNames(t, Options{Caller: &fakeCaller{}}); slices.Contains(names, "capture") {
		t.Fatal("capture offered without AllowCapture")
	}
	c := &fakeCaller{reply: func(method string, params any) (any, error) {
		if method == calls.MethodCaptureStop {
			return calls.CaptureStopResult{Capture: json.RawMessage(`{"format":"waymark.capture/1"}`), HAR: json.RawMessage(`{"log":{}}`), Exchanges: 3}, nil
		}
		return nil, nil
	}}
	cs := connect(t, Options{Caller: c, AllowCapture: true})
	if out, isErr, _ := callTool(t, cs, "capture", map[string]any{"action": "start"}); isErr {
		t.Fatalf("start: %s", out)
	}
	dir := t.TempDir()
	out, isErr, _ := callTool(t, cs, "capture", map[string]any{"action": "stop", "file": filepath.Join(dir, "no", "such", "c.json")})
	if !isErr || !strings.Contains(out, "cannot write") {
		t.Errorf("stop to a path it cannot write: %v %s", isErr, out)
	}
	file, har := filepath.Join(dir, "c.json"), filepath.Join(dir, "c.har")
	if out, isErr, _ := callTool(t, cs, "capture", map[string]any{"action": "stop", "file": file, "har": har}); isErr || !strings.Contains(out, "3 requests") {
		t.Errorf("stop: %v %s", isErr, out)
	}
	for _, p := range []string{file, har} {
		fi, err := os.Stat(p)
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v %v", p, fi, err)
		}
	}
	var methods []string
	for _, call := range c.seen() {
		methods = append(methods, call.Method+" "+call.Params)
	}
	want := []string{`capture.start {}`, `capture.stop {"keep":true}`, `capture.stop {"keep":true,"har":true}`, `capture.stop {"har":true}`}
	if !slices.Equal(methods, want) {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(methods, "\n"), strings.Join(want, "\n"))
	}
	if out, isErr, _ := callTool(t, cs, "capture", map[string]any{"action": "pause"}); !isErr {
		t.Errorf("unknown action: %s", out)
	}
}

func toolNames(t *testing.T, opts Options) []string {
	t.Helper()
	res, err := connect(t, opts).ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	return names
}
