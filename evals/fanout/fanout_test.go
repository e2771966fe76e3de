//go:build evals

package fanout

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/evals/report"
	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/internal/demo"
)

// bin is this checkout's waymark, built once for the eval.
var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "wm-fanout")
	if err != nil {
		panic(err)
	}
	bin = filepath.Join(dir, "waymark")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/waymark").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build waymark: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// daemon is one waymark daemon of the eval's own (its socket and state
// folder), driven by running the binary as a user does.
type daemon struct {
	t      *testing.T
	socket string
	dir    string
}

func newDaemon(t *testing.T, name string) *daemon {
	dir := t.TempDir()
	d := &daemon{t: t, socket: filepath.Join(dir, name+".sock"), dir: dir}
	t.Cleanup(func() { d.run("daemon", "stop") })
	return d
}

func (d *daemon) run(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = d.dir
	cmd.Env = append(os.Environ(), "WAYMARK_SOCKET="+d.socket,
		"WAYMARK_BROWSER_ARGS="+strings.Join(browsertest.GuardArgs, "\n"),
		"XDG_STATE_HOME="+filepath.Join(d.dir, "state"), "XDG_CONFIG_HOME="+filepath.Join(d.dir, "config"))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

func (d *daemon) ok(args ...string) string {
	d.t.Helper()
	out, err := d.run(args...)
	if err != nil {
		d.t.Fatalf("waymark %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// subjects is how many rows the job runs over.
const subjects = 12

// TestFanout records one job on the demo shop (a product page by id, a
// quantity, "Add to cart", a check that it was added), then runs it over
// 12 subjects two ways, each on a daemon of its own: one at a time
// (`waymark replay` per subject in one session) and as one batch with
// --parallel 4. It reports the wall time and peak memory (tree PSS of the
// daemon and its Chromium, sampled) of each, the model calls (none: the
// replays run with --no-model, so a step that needed one would fail), and
// counts the carts the shop filled rather than trusting the tool.
func TestFanout(t *testing.T) {
	browsertest.Chrome(t)
	site := demo.New(nil)
	srv := httptest.NewServer(site)
	defer srv.Close()
	job := record(t, srv.URL)

	rows := make([]string, subjects)
	for i := range rows {
		rows[i] = fmt.Sprintf(`{"id": "%d", "qty": "%d"}`, i+1, i%3+1)
	}

	// One at a time.
	seq := newDaemon(t, "seq")
	seq.ok("--session", "warm", "open", "about:blank") // the daemon and browser start outside the timing, as for the batch
	sjob := seq.write("job.json", job)
	before := len(site.Sessions())
	stop := Sample(seq.socket)
	start := time.Now()
	for i := range subjects {
		seq.ok("--session", "fan", "replay", sjob, "--no-model", "--hand=false", "--allow-submit",
			"--var", fmt.Sprintf("id=%d", i+1), "--var", fmt.Sprintf("qty=%d", i%3+1))
	}
	seqMS := time.Since(start).Milliseconds()
	seqPeak := stop()
	seqCarts := carts(site, before)

	// A batch, four at a time.
	par := newDaemon(t, "par")
	par.ok("--session", "warm", "open", "about:blank")
	pjob := par.write("job.json", job)
	inputs := par.write("subjects.jsonl", []byte(strings.Join(rows, "\n")+"\n"))
	before = len(site.Sessions())
	stop = Sample(par.socket)
	start = time.Now()
	out := par.ok("batch", pjob, "--inputs", inputs, "--parallel", "4", "--allow-submit", "--out", filepath.Join(par.dir, "results.jsonl"))
	parMS := time.Since(start).Milliseconds()
	parPeak := stop()
	parCarts := carts(site, before)
	t.Logf("batch: %s", out)
	// Again, on the engine the first batch started (NATS and its streams
	// are up; the pool's sessions are warm).
	start = time.Now()
	out = par.ok("batch", pjob, "--inputs", inputs, "--parallel", "4", "--allow-submit")
	warmMS := time.Since(start).Milliseconds()
	t.Logf("second batch: %s", out)

	if seqCarts != subjects || parCarts != subjects {
		t.Errorf("the shop's carts hold %d lines from one at a time and %d from the batch; want %d each", seqCarts, parCarts, subjects)
	}
	figures := map[string]any{
		"subjects": subjects, "parallel": 4,
		"sequential_ms": seqMS, "parallel_ms": parMS, "parallel_again_ms": warmMS,
		"speedup":            round(float64(seqMS) / float64(parMS)),
		"sequential_peak_mb": round(float64(seqPeak) / 1024), "parallel_peak_mb": round(float64(parPeak) / 1024),
		"model_calls": 0, "sequential_cart_lines": seqCarts, "parallel_cart_lines": parCarts,
	}
	md := fmt.Sprintf("One recorded job (product page, quantity, Add to cart, check) over %d subjects of the demo shop, replayed with no model. "+
		"Carts counted on the shop's side. Peak memory: tree PSS of the daemon and its Chromium, sampled every 100 ms.\n\n"+
		"| run | wall time | peak memory | model calls | cart lines on the shop |\n|---|---|---|---|---|\n"+
		"| one at a time (`waymark replay` ×%d) | %.1f s | %.0f MB | 0 | %d |\n"+
		"| batch, `--parallel 4` | %.1f s | %.0f MB | 0 | %d |\n"+
		"| the same batch again on the daemon's running engine | %.1f s | | 0 | |\n",
		subjects, subjects, float64(seqMS)/1000, float64(seqPeak)/1024, seqCarts, float64(parMS)/1000, float64(parPeak)/1024, parCarts, float64(warmMS)/1000)
	if err := report.Write(report.Dir, report.Section{Name: "fanout", Figures: figures, Markdown: md}); err != nil {
		t.Error(err)
	}
	t.Log(md)
}

func round(f float64) float64 { return float64(int(f*100+0.5)) / 100 }

// write puts b in the daemon's folder and returns the path.
func (d *daemon) write(name string, b []byte) string {
	d.t.Helper()
	p := filepath.Join(d.dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		d.t.Fatal(err)
	}
	return p
}

// carts counts the cart lines of the shop sessions since before: one a
// subject (each subject is another product).
func carts(site *demo.Site, before int) int {
	n := 0
	for _, id := range site.Sessions()[before:] {
		n += len(site.Session(id).Cart)
	}
	return n
}

// record records the job with the CLI, as a user would: open a product,
// start recording, set the quantity, add to cart, stop; then makes the
// product and quantity variables, as a user edits a recording.
func record(t *testing.T, base string) []byte {
	d := newDaemon(t, "rec")
	s := []string{"--session", "rec"}
	d.ok(append(s, "open", base+"/products/1")...)
	d.ok(append(s, "record", "start")...)
	d.ok(append(s, "fill", "label=Quantity", "2")...)
	d.ok(append(s, "click", `role=button[name="Add to cart"]`, "--allow-submit")...)
	d.ok(append(s, "wait", "--text", "to your cart")...)
	d.ok(append(s, "record", "stop", "job.json")...)
	b, err := os.ReadFile(filepath.Join(d.dir, "job.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r map[string]any
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	r["variables"] = []any{map[string]any{"name": "id"}, map[string]any{"name": "qty"}}
	steps, _ := r["steps"].([]any)
	for _, s := range steps {
		st, _ := s.(map[string]any)
		if st["kind"] == "goto" {
			st["url"] = strings.Replace(st["url"].(string), "/products/1", "/products/%id%", 1)
			delete(st, "landed")
		}
		if st["op"] == "fill" {
			st["value"] = map[string]any{"from": "input", "slot": "qty"}
		}
	}
	out, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("job: %s", out)
	return out
}
