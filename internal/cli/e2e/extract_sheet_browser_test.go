package e2e

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/apptest"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/pilotflags"
	"github.com/waymark-dev/waymark/internal/sessions"
)

// TestExtractOnARealSheet: `waymark extract --schema` on the real
// Jspreadsheet CE page holding two tables reads the table whose headers
// place the schema's fields, with no model call (a model is configured:
// a loopback server that counts what reaches it), and the same extract
// on an ordinary page is asked no sheet dump.
func TestExtractOnARealSheet(t *testing.T) {
	t.Parallel()
	srv := apptest.Sheet(t, apptest.SheetOptions{Title: "Shop", Data: [][]string{
		{"Orders"},
		{"Customer", "Amount", "Paid"},
		{"Ann", "12.5", "yes"},
		{"Bob", "1200", "no"},
		{},
		{"Stock"},
		{"Product", "Price", "Count"},
		{"lamp", "19.99", "3"},
		{"desk", "120", "12"},
		{"chair", "45", "7"},
	}})
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	env, modelCalls := failingModel(t)

	m := sessions.NewShared(drivertest.Driver(t))
	defer m.Close()
	rec := &methodLog{Caller: noClose{m}}
	common, _, _ := clitest.NewCommon(rec, false, false)
	common.Session = t.Name() // its own in the shared browser
	common.Getenv = func(k string) string { return env[k] }
	s := common.Remote()
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Wait(ctx, calls.WaitRequest{Selector: ".jss_worksheet td[data-x='0'][data-y='0']"}); err != nil {
		t.Fatalf("the sheet was not drawn: %v", err)
	}
	dir := t.TempDir()
	schema := filepath.Join(dir, "s.json")
	if err := os.WriteFile(schema, []byte(`{"type":"array","items":{"type":"object","properties":{"product":{"type":"string"},"price":{"type":"number"},"count":{"type":"integer"}}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	extract := func() (code int, stdout, stderr string) {
		code, stdout, stderr, _ = runMain(t, ctx, rec, env, "--session", common.Session, "extract", "the stock", "--schema", schema)
		return code, stdout, stderr
	}
	code, out, errOut := extract()
	if code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, errOut)
	}
	const want = `[{"count":3,"price":19.99,"product":"lamp"},{"count":12,"price":120,"product":"desk"},{"count":7,"price":45,"product":"chair"}]`
	if got := strings.TrimSpace(out); got != want {
		t.Errorf("rows %s\nwant %s\nstderr: %s", got, want, errOut)
	}
	if n := modelCalls.Load(); n != 0 {
		t.Errorf("%d model calls; want none: every field has a header", n)
	}
	if !rec.asked(calls.MethodSheetDump) {
		t.Errorf("calls %v: no sheet dump", rec.methods)
	}
	t.Logf("stderr: %s", errOut)

	// sheet dump names the tables it holds, in text and in --json.
	for _, asJSON := range []bool{false, true} {
		args := []string{"--session", common.Session, "sheet", "dump"}
		if asJSON {
			args = append(args, "--json")
		}
		code, dout, derr, _ := runMain(t, ctx, noClose{m}, env, args...)
		if code != 0 {
			t.Fatalf("sheet dump: exit %d: %s", code, derr)
		}
		for _, want := range []string{"'Orders': 2 rows; Customer, Amount (number), Paid", "'Stock': 3 rows; Product, Price (number), Count (number)"} {
			if !strings.Contains(dout, want) {
				t.Errorf("sheet dump (json %v) does not name the table %q:\n%s", asJSON, want, dout)
			}
		}
		if !asJSON && !strings.Contains(dout, "[table] A2:C4 'Orders'") {
			t.Errorf("sheet dump's text has no [table] line for Orders at A2:C4:\n%s", dout)
		}
	}

	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!doctype html><title>Stock</title><table><tr><th>Product</th><th>Price</th></tr><tr><td>lamp</td><td>19.99</td></tr></table>`))
	}))
	defer page.Close()
	if _, err := s.Open(ctx, calls.OpenRequest{URL: page.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if dump, err := pilotflags.SheetDumpOf(ctx, s); err != nil || dump != nil {
		t.Fatalf("an ordinary page is a sheet: %v", err)
	}
	t.Logf("an ordinary page is told from a sheet in %s", time.Since(start))
	rec.methods = nil
	if code, _, _ := extract(); code == 0 {
		t.Error("an ordinary page was read with no model")
	}
	if rec.asked(calls.MethodSheetDump) || modelCalls.Load() == 0 {
		t.Errorf("ordinary page: calls %v, %d model calls", rec.methods, modelCalls.Load())
	}
}

// methodLog is a Caller that notes the methods it passes on.
type methodLog struct {
	cmdutil.Caller
	methods []string
}

func (l *methodLog) Call(ctx context.Context, session, method string, params, result any) error {
	l.methods = append(l.methods, method)
	return l.Caller.Call(ctx, session, method, params, result)
}

func (l *methodLog) asked(method string) bool {
	for _, m := range l.methods {
		if m == method {
			return true
		}
	}
	return false
}
