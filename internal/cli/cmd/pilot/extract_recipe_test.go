package pilot

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/pilotflags"
)

const recipeFile = `{"format":"waymark.recipe/1","container":"body > ul","row":"li","fields":[{"name":"name","type":"string","by":"role","select":"a"},{"name":"price","type":"number","by":"attr","select":"span.price"}],"learned":2}`

// extract --recipe FILE reads by the recipe in one script, with no model
// (none is configured: a model call would fail), and prints the rows.
func TestExtractByARecipeNeedsNoModel(t *testing.T) {
	dir := t.TempDir()
	schema := filepath.Join(dir, "s.json")
	rf := filepath.Join(dir, "r.json")
	os.WriteFile(schema, []byte(`{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"price":{"type":"number"}}}}`), 0o644)
	os.WriteFile(rf, []byte(recipeFile), 0o644)
	rows := map[string]any{"found": true, "lang": "en", "rows": []map[string]any{{"name": "Trail Mug", "price": "£1,299.00"}, {"name": "Tote", "price": "£22"}}}
	fc := &clitest.FakeCaller{Results: map[string]any{calls.MethodEval: map[string]any{"value": rows}}}
	common, out, _ := clitest.NewCommon(fc, false, false)
	common.Getenv = func(string) string { return "" }
	opts := &ExtractOptions{PilotOptions: pilotflags.PilotOptions{Common: common}, Instruction: "every product", SchemaFile: schema, RecipeFile: rf}
	if err := extractRun(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(out.String()); got != `[{"name":"Trail Mug","price":1299},{"name":"Tote","price":22}]` {
		t.Fatalf("printed %s", got)
	}
	// One script reads; the extract then goes to the session's recording
	// (the daemon's, which records nothing when the session does not).
	if m := fc.Methods(); len(m) != 2 || m[0] != calls.MethodEval || m[1] != calls.MethodRecordExtract {
		t.Fatalf("calls %v: a recipe read is one script, then the recording is told", m)
	}
	// No rows where there were: it says the recipe no longer fits, and
	// with no model that is where it stops.
	fc.Results[calls.MethodEval] = map[string]any{"value": map[string]any{"found": true, "rows": []any{}}}
	err := extractRun(context.Background(), opts)
	var ce *calls.Error
	if !errors.As(err, &ce) || ce.Kind != calls.ErrNoMatch || !strings.Contains(ce.Msg, "no longer fits") {
		t.Fatalf("err %v", err)
	}
	// A broken recipe file is the user's to fix, with a hint.
	os.WriteFile(rf, []byte(`{"format":"waymark.recipe/9"}`), 0o644)
	err = extractRun(context.Background(), opts)
	if !errors.As(err, &ce) || ce.Kind != calls.ErrBadInput || ce.Hint == "" {
		t.Fatalf("err %v", err)
	}
}

func TestExtractListFlags(t *testing.T) {
	dir := t.TempDir()
	seen := filepath.Join(dir, "seen.txt")
	os.WriteFile(seen, []byte("TM-1\nCT-2\n"), 0o644)
	o, err := clitest.ParseCmd(t, NewCmdExtract, []string{"every product", "--schema", "s.json", "--pages", "5", "--key", "sku", "--limit", "40", "--until", "3 days ago", "--seen", seen})
	if err != nil {
		t.Fatal(err)
	}
	lo, err := o.listOptions()
	if err != nil {
		t.Fatal(err)
	}
	if lo.Pages != 5 || lo.Key != "sku" || lo.Limit != 40 || len(lo.Seen) != 2 || lo.Until.IsZero() || lo.Now.Sub(lo.Until) < 71*time.Hour {
		t.Fatalf("%+v", lo)
	}
	if err := o.saveSeen(lo.Seen, []string{"FN-3"}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(seen); string(b) != "TM-1\nCT-2\nFN-3\n" {
		t.Fatalf("seen file %q", b)
	}
	for _, args := range [][]string{{"--until", "soonish"}, {"--seen", seen}} {
		o, _ := clitest.ParseCmd(t, NewCmdExtract, append([]string{"x", "--schema", "s.json"}, args...))
		var ue *cmdutil.UsageError
		if _, err := o.listOptions(); !errors.As(err, &ue) || ue.Hint == "" {
			t.Errorf("%v: %v", args, err)
		}
	}
}
