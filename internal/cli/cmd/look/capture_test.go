package look

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
)

func TestScreenshotRun(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	state := t.TempDir()
	getenv := func(k string) string {
		if k == "XDG_STATE_HOME" {
			return state
		}
		return ""
	}
	fc := &clitest.FakeCaller{Results: map[string]any{calls.MethodScreenshot: calls.Image{Data: clitest.PNG}}}

	shoot := func(path string, jsonOut bool) (string, string) {
		t.Helper()
		c, out, _ := clitest.NewCommon(fc, jsonOut, false)
		c.Getenv = getenv
		opts := &ScreenshotOptions{Common: c, Path: path, Now: func() time.Time { return clitest.Now }}
		if err := screenshotRun(context.Background(), opts); err != nil {
			t.Fatal(err)
		}
		return out.String(), filepath.Join(dir, path)
	}

	// Two defaults in the same second get two files, in the screenshots
	// folder of the state folder (private), not the working folder.
	out1, _ := shoot("", false)
	out2, _ := shoot("", false)
	shots := filepath.Join(state, "waymark", "screenshots")
	want1 := filepath.Join(shots, "waymark-20260304-050607.png")
	want2 := filepath.Join(shots, "waymark-20260304-050607-2.png")
	if out1 != want1+"\n" || out2 != want2+"\n" {
		t.Errorf("printed %q and %q, want %s and %s", out1, out2, want1, want2)
	}
	for _, p := range []string{want1, want2} {
		if b, err := os.ReadFile(p); err != nil || string(b) != string(clitest.PNG) {
			t.Errorf("%s: %q, %v", p, b, err)
		}
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: want mode 0600: %v %v", p, fi, err)
		}
	}
	if fi, err := os.Stat(shots); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("screenshots folder: want mode 0700: %v %v", fi, err)
	}
	if here, _ := os.ReadDir(dir); len(here) != 0 {
		t.Errorf("the working folder got %d files", len(here))
	}

	// An explicit relative path is written and printed absolute.
	out, abs := shoot("page.png", true)
	var env struct {
		OK   bool
		Data struct {
			Path  string
			Bytes int
		}
	}
	if err := json.Unmarshal([]byte(out), &env); err != nil || !env.OK || env.Data.Path != abs || env.Data.Bytes != len(clitest.PNG) {
		t.Errorf("json: %q (%v)", out, err)
	}
	if b, _ := os.ReadFile(abs); string(b) != string(clitest.PNG) {
		t.Errorf("page.png holds %q", b)
	}

	// An empty capture is an error, not an empty file.
	fc.Results[calls.MethodScreenshot] = calls.Image{}
	c, _, _ := clitest.NewCommon(fc, false, false)
	if err := screenshotRun(context.Background(), &ScreenshotOptions{Common: c, Path: "empty.png", Now: time.Now}); err == nil {
		t.Error("empty capture: no error")
	}
	if _, err := os.Stat(filepath.Join(dir, "empty.png")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("empty.png was written: %v", err)
	}
}

func TestPDFRun(t *testing.T) {
	dir := t.TempDir()
	fc := &clitest.FakeCaller{Results: map[string]any{calls.MethodPDF: calls.Image{Data: []byte("%PDF-1.7")}}}
	c, out, _ := clitest.NewCommon(fc, false, false)
	path := filepath.Join(dir, "a.pdf")
	// A world-readable file there is replaced by one for its owner alone.
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := pdfRun(context.Background(), &PDFOptions{Common: c, Path: path}); err != nil {
		t.Fatal(err)
	}
	if out.String() != path+"\n" {
		t.Errorf("stdout %q", out.String())
	}
	if b, _ := os.ReadFile(path); string(b) != "%PDF-1.7" {
		t.Errorf("file holds %q", b)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("pdf: want mode 0600: %v %v", fi, err)
	}
}
