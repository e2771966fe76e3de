package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
)

// TestTraceStopAndShow: trace stop writes the daemon's trace as JSON or,
// for a .html name, as a report with its screenshots inside; trace show
// turns the JSON into the same report.
func TestTraceStopAndShow(t *testing.T) {
	dir := t.TempDir()
	png := []byte("\x89PNG\r\n\x1a\nfake")
	tr := calls.Trace{Format: calls.TraceFormat, Session: "s1", Entries: []calls.TraceEntry{
		{Index: 1, Method: calls.MethodOpen, Params: json.RawMessage(`{"url":"http://shop.test/"}`), OK: true, Outcome: `at http://shop.test/ "Shop"`, After: png},
		{Index: 2, Method: calls.MethodAct, Params: json.RawMessage(`{"kind":"click","target":"@e9"}`), Code: "not_found", Error: "no element matches @e9", Before: png, After: png},
	}}
	fc := &clitest.FakeCaller{Results: map[string]any{calls.MethodTraceStop: tr}}
	jsonFile, htmlFile := filepath.Join(dir, "t.json"), filepath.Join(dir, "t.html")
	// An older file of the same name, readable by all, is narrowed.
	if err := os.WriteFile(htmlFile, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{jsonFile, htmlFile} {
		if code, stdout, stderr, _ := runMain(t, context.Background(), fc, nil, "trace", "stop", f); code != 0 || strings.TrimSpace(stdout) != f {
			t.Fatalf("trace stop %s: exit %d\n%s%s", f, code, stdout, stderr)
		}
	}
	var back calls.Trace
	if err := json.Unmarshal([]byte(readTestFile(t, jsonFile)), &back); err != nil || len(back.Entries) != 2 {
		t.Fatalf("the JSON trace: %v %+v", err, back)
	}
	shown := filepath.Join(dir, "shown.html")
	if code, _, stderr, _ := runMain(t, context.Background(), fc, nil, "trace", "show", jsonFile, shown); code != 0 {
		t.Fatalf("trace show: exit %d\n%s", code, stderr)
	}
	// A trace holds the session's pages, console and requests: 0600, as
	// state files are.
	for _, f := range []string{jsonFile, htmlFile, shown} {
		if fi, err := os.Stat(f); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, %v; want 0600", filepath.Base(f), fi.Mode().Perm(), err)
		}
	}
	for _, f := range []string{htmlFile, shown} {
		page := readTestFile(t, f)
		for _, want := range []string{"open http://shop.test/", "click @e9", "failed (not_found):", `src="data:image/png;base64,`} {
			if !strings.Contains(page, want) {
				t.Errorf("%s lacks %q", filepath.Base(f), want)
			}
		}
		if n := strings.Count(page, `src="data:image/png;base64,`); n != 3 {
			t.Errorf("%s has %d images, want 3", filepath.Base(f), n)
		}
	}
}

func readTestFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
