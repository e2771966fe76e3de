package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/apptest"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/sessions"
)

// `waymark extract` and `sheet dump` on a spreadsheet drawn on a canvas
// (the real x-data-spreadsheet) say why it cannot be read and what to do,
// with no model call (the page's text holds no cell for a model to read).
func TestExtractOnACanvasGridSaysWhy(t *testing.T) {
	t.Parallel()
	srv := apptest.XSpreadsheet(t, [][]string{{"Product", "Price"}, {"lamp", "19.99"}, {"desk", "120"}})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	env, modelCalls := failingModel(t)
	m := sessions.NewShared(drivertest.Driver(t))
	defer m.Close()
	common, _, _ := clitest.NewCommon(m, false, false)
	common.Session = t.Name() // its own in the shared browser
	common.Getenv = func(k string) string { return env[k] }
	s := common.Remote()
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Wait(ctx, calls.WaitRequest{Selector: ".x-spreadsheet canvas.x-spreadsheet-table"}); err != nil {
		t.Fatalf("the sheet was not drawn: %v", err)
	}
	schema := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(schema, []byte(`{"type":"array","items":{"type":"object","properties":{"product":{"type":"string"},"price":{"type":"number"}}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr, _ := runMain(t, ctx, noClose{m}, env, "--session", common.Session, "--json", "extract", "the products", "--schema", schema)
	var failed struct {
		Error struct{ Code, Message, Hint string } `json:"error"`
	}
	if code == 0 || json.Unmarshal([]byte(stdout), &failed) != nil || failed.Error.Code != calls.Code(calls.ErrNoMatch) ||
		!strings.Contains(failed.Error.Message, "x-data-spreadsheet, a spreadsheet waymark cannot read") || !strings.Contains(failed.Error.Hint, "CSV") {
		t.Errorf("extract: exit %d\n%s%s", code, stdout, stderr)
	}
	if n := modelCalls.Load(); n != 0 {
		t.Errorf("%d model calls; want none", n)
	}
	code, stdout, stderr, _ = runMain(t, ctx, noClose{m}, env, "--session", common.Session, "--json", "sheet", "dump")
	if code == 0 || !strings.Contains(stdout, "drawn on a canvas") {
		t.Errorf("sheet dump --json: exit %d\n%s%s", code, stdout, stderr)
	}
}
