package e2e

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/adversarial"
	"github.com/waymark-dev/waymark/internal/apishop"
	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/internal/rpc"
	"github.com/waymark-dev/waymark/internal/sessions"
	"github.com/waymark-dev/waymark/recipe"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/siteapi"
)

// The step × runner matrix (issue 27 item 6): one routine holding every
// step kind of the web half runs on every runner (replay.Run over the
// in-process driver, `waymark replay`, the MCP replay tool, a batch row
// on the daemon's embedded engine, a batch row taken by `waymark worker`
// from a three-node NATS cluster), all in one Chromium reached over its
// DevTools port. Each cell is judged by what reached the loopback server
// (the page tells it each value it is given), not by what the runner
// says; reads (extract, the API's rows) by the data the runner returns.

// matrixPage is the shop page: every control tells the server what it
// got, by a GET (nothing the send gate holds).
const matrixPage = `<!doctype html><html lang="en"><title>Shop</title><body><main><h1>Shop</h1>
<label>Search <input id=q></label>
<label>Size <select id=size><option>Small</option><option>Large</option></select></label>
<button id=more>Show more</button> <button id=yes>Then</button> <button id=no>Else</button>
<ul id=items><li><h2>Lamp</h2><button>Add</button></li><li><h2>Desk</h2><button>Add</button></li><li><h2>Sofa</h2><button>Add</button></li></ul>
<p>Ready</p>
<template id=tpl><div id=pop style="position:fixed;inset:0;background:#fff"><p>Join our newsletter</p><button id=nothanks>No thanks</button></div></template>
<script>
const tell = (k, v) => fetch('/seen?k=' + k + '&v=' + encodeURIComponent(v));
q.addEventListener('change', () => tell('fill', q.value));
q.addEventListener('keydown', e => { if (e.key === 'Enter') tell('press', q.value); });
size.addEventListener('change', () => tell('select', size.value));
more.addEventListener('click', () => {
  tell('click', 'more');
  // A newsletter popup, late: over the next step, once.
  if (window.popped) return;
  window.popped = true;
  setTimeout(() => {
    document.body.insertAdjacentHTML('beforeend', tpl.innerHTML);
    nothanks.addEventListener('click', () => { tell('dismiss', 'popup'); pop.remove(); });
  }, 0);
});
yes.addEventListener('click', () => tell('if', 'then'));
no.addEventListener('click', () => tell('if', 'else'));
document.querySelectorAll('#items button').forEach(b => b.addEventListener('click', () => tell('add', b.closest('li').querySelector('h2').textContent)));
</script></main></body></html>`

// matrixForm is the form page: the form step fills it, and each change
// is told.
const matrixForm = `<!doctype html><html lang="en"><title>Sign up</title><body><form method=post action="/done">
<label>Name <input name=name onchange="fetch('/seen?k=form&v='+encodeURIComponent(this.value))"></label>
<label>Plan <select name=plan onchange="fetch('/seen?k=form&v='+encodeURIComponent(this.value))"><option>Basic</option><option>Pro</option></select></label>
<button>Sign up</button></form></body></html>`

// matrixRun is what a runner did: its status, its message and the data
// the routine read.
type matrixRun struct {
	status string // ok, or what stopped it
	msg    string
	data   map[string]json.RawMessage
}

// matrixCase is one routine of the matrix, the values its rows give,
// and the cells it judges.
type matrixCase struct {
	name    string
	r       *routine.Routine
	raw     json.RawMessage
	file    string
	vars    map[string]string
	submits string // what its approvals need: ask, or allow
	reset   func()
	cells   func(t *testing.T, got matrixRun)
}

func TestEveryRunnerRunsEveryStep(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts a browser and a NATS cluster")
	}
	start := time.Now()
	port := devtoolsBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	t.Cleanup(cancel) // not at return: the cases run after it
	m := sessions.New(driver.Options{CDP: port})
	t.Cleanup(func() { _ = m.Close() })

	cases := []func(t *testing.T) *matrixCase{
		func(t *testing.T) *matrixCase { return webCase(t, ctx, m) },
		func(t *testing.T) *matrixCase { return appsCase(t) },
	}
	worker := startClusterWorker(t, ctx, port)
	runners := []struct {
		name string
		run  func(t *testing.T, c *matrixCase) matrixRun
	}{
		{"go", func(t *testing.T, c *matrixCase) matrixRun {
			b, err := driver.Launch(ctx, driver.Options{CDP: port})
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			s, err := b.Session(ctx, "matrix-go-"+c.name)
			if err != nil {
				t.Fatal(err)
			}
			res, err := replay.Run(ctx, s, c.r, replay.Options{Vars: c.vars, NoHand: true, Submits: c.submits})
			if err != nil {
				t.Fatal(err)
			}
			return matrixOf(res)
		}},
		{"cli", func(t *testing.T, c *matrixCase) matrixRun { return cliReplay(t, ctx, m, c) }},
		{"mcp", func(t *testing.T, c *matrixCase) matrixRun { return mcpReplay(t, ctx, m, c) }},
		{"batch", func(t *testing.T, c *matrixCase) matrixRun { return embeddedRow(t, ctx, m, c) }},
		{"worker", func(t *testing.T, c *matrixCase) matrixRun { return worker.row(t, ctx, c) }},
	}
	// The two cases at once: each has its servers, its sessions and its
	// rows; the runners of one case go one after another (each judges what
	// reached the case's server since its reset). The worker stops after
	// both, when the test's cleanups run.
	t.Cleanup(func() {
		worker.stop(t)
		t.Logf("the matrix took %s", time.Since(start).Round(time.Second))
	})
	for _, mk := range cases {
		c := mk(t)
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if c.r == nil {
				t.Skip(c.file) // why the case cannot run here
			}
			for _, rn := range runners {
				t.Run(rn.name, func(t *testing.T) {
					c.reset()
					took := time.Now()
					got := rn.run(t, c)
					t.Logf("%s/%s: %s in %s", c.name, rn.name, got.status, time.Since(took).Round(time.Millisecond))
					if got.status != replay.StatusOK {
						t.Errorf("the routine stopped: %s: %s", got.status, got.msg)
					}
					c.cells(t, got)
				})
			}
		})
	}
}

// webCase is the routine of every step kind of the web half, on the
// loopback shop and the API shop.
func webCase(t *testing.T, ctx context.Context, m *sessions.Manager) *matrixCase {
	site := adversarial.NewServer(t, map[string]string{"/shop": matrixPage, "/form": matrixForm, "/each": "<!doctype html><title>Each</title><p>each</p>", "/seen": ""})
	shop := apishop.Start(apishop.Options{})
	t.Cleanup(shop.Close)
	c := &matrixCase{name: "web", r: matrixRoutine(t, ctx, m, site, shop), submits: replay.SubmitsAsk,
		vars:  map[string]string{"q": "brass lamp", "name": "Ann Matrix", "picks": `[{"name":"Lamp"},{"name":"Desk"}]`},
		reset: func() { site.Reset(); shop.Reset() },
		cells: func(t *testing.T, got matrixRun) { matrixCells(t, site, shop, got) }}
	c.save(t)
	return c
}

// save writes the routine's file, for the CLI.
func (c *matrixCase) save(t *testing.T) {
	t.Helper()
	raw, err := json.Marshal(c.r)
	if err != nil {
		t.Fatal(err)
	}
	c.raw = raw
	c.file = filepath.Join(t.TempDir(), c.name+".json")
	if err := os.WriteFile(c.file, raw, 0o600); err != nil {
		t.Fatal(err)
	}
}

// matrixCell is one cell: a step kind on a runner.
func matrixCell(t *testing.T, step string, ok bool, format string, args ...any) {
	t.Helper()
	t.Run(step, func(t *testing.T) {
		if !ok {
			t.Errorf(format, args...)
		}
	})
}

// matrixCells judges each step kind of one runner.
func matrixCells(t *testing.T, site *adversarial.Server, shop *apishop.Shop, got matrixRun) {
	t.Helper()
	told := func(k string) []string {
		var out []string
		for _, r := range site.Requests() {
			if r.Path != "/seen" {
				continue
			}
			q, _ := url.ParseQuery(r.Query)
			if q.Get("k") == k {
				out = append(out, q.Get("v"))
			}
		}
		return out
	}
	has := func(k, v string) bool {
		for _, x := range told(k) {
			if x == v {
				return true
			}
		}
		return false
	}
	eventually := func(k, v string) bool { // a fetch the page started may land a moment later (seconds, loaded)
		for end := time.Now().Add(15 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
			if has(k, v) {
				return true
			}
		}
		return false
	}
	cell := func(step string, ok bool, format string, args ...any) { matrixCell(t, step, ok, format, args...) }
	cell("goto", site.Count("GET", "/shop") >= 1 && site.Count("GET", "/form") >= 1, "the pages were not loaded: %d /shop, %d /form", site.Count("GET", "/shop"), site.Count("GET", "/form"))
	cell("act_fill", eventually("fill", "brass lamp"), "the server was told %q for the search", told("fill"))
	cell("act_press", eventually("press", "brass lamp"), "the server was told %q for Enter", told("press"))
	cell("act_select", eventually("select", "Large"), "the server was told %q for the size", told("select"))
	cell("act_click", eventually("click", "more"), "the server was told %q for Show more", told("click"))
	cell("verify", got.status == replay.StatusOK, "the routine stopped: %s", got.msg)
	cell("if", eventually("if", "then") && !has("if", "else"), "the server was told %q for the if", told("if"))
	// The dismissal is skipped at its place (no popup yet), and closes
	// the popup that shows late over the if's click, taken again once.
	cell("act_dismiss", eventually("dismiss", "popup") && len(told("dismiss")) == 1 && len(told("if")) == 1,
		"the server was told %q for the popup's No thanks, %q for the click it stood over", told("dismiss"), told("if"))
	cell("extract_recipe", string(got.data["items"]) == `[{"name":"Lamp"},{"name":"Desk"},{"name":"Sofa"}]`, "items %s", got.data["items"])
	adds := func() bool {
		return eventually("add", "Lamp") && eventually("add", "Desk") && eventually("add", "Sofa") && len(told("add")) == 3
	}
	cell("each_recipe", adds(), "the server was told %q for the rows' Add", told("add"))
	each := map[string]int{}
	for _, r := range site.Requests() {
		if r.Path == "/each" {
			q, _ := url.ParseQuery(r.Query)
			each[q.Get("v")]++
		}
	}
	cell("each_list", len(each) == 2 && each["Lamp"] == 1 && each["Desk"] == 1, "the server served /each for %v", each)
	cell("form", eventually("form", "Ann Matrix") && eventually("form", "Pro") && site.Count("POST", "") == 0, "the server was told %q for the form, %d POST(s)", told("form"), site.Count("POST", ""))
	var lamps []map[string]any
	_ = json.Unmarshal(got.data["lamps"], &lamps)
	// The recipe's call opens a tab on the shop, whose page calls the API
	// once itself: the step's own call is the one beyond those.
	hits, pages := shop.Hits("/api/products"), shop.Hits("/")
	cell("api", hits-pages == 1 && len(lamps) == 10, "the API was called %d time(s) (%d page load(s)) for %d row(s)", hits, pages, len(lamps))
}

// matrixRoutine is the routine of every step kind of the web half. The
// API recipe is learned from the shop's capture, as `api learn` does.
func matrixRoutine(t *testing.T, ctx context.Context, m *sessions.Manager, site *adversarial.Server, shop *apishop.Shop) *routine.Routine {
	t.Helper()
	s := calls.Remote{Caller: m, Session: "matrix-learn"}
	defer func() {
		_ = rpc.Daemon{Caller: m, Session: s.Session}.CloseSession(context.WithoutCancel(ctx))
	}()
	first := shop.Products()[0].Name
	if _, err := s.Open(ctx, calls.OpenRequest{URL: shop.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Wait(ctx, calls.WaitRequest{Text: first}); err != nil {
		t.Fatal(err)
	}
	var want []map[string]any
	for _, p := range shop.Products()[:10] {
		want = append(want, map[string]any{"name": p.Name, "price": p.Price, "stock": p.Stock})
	}
	api, _, err := siteapi.LearnCall(ctx, s, shop.Capture([]byte("matrix")), want, siteapi.LearnOptions{Page: shop.URL + "/"})
	if err != nil {
		t.Fatal(err)
	}
	items := &recipe.Recipe{Format: recipe.Format, Container: "ul#items", Row: "li", Learned: 3,
		Fields: []recipe.Field{{Name: "name", Type: "string", By: recipe.ByTag, Select: ":scope > h2"}}}
	target := func(loc, tag, role, name string) *routine.Target {
		return &routine.Target{Locator: loc, Fingerprint: calls.Fingerprint{Tag: tag, Role: role, Name: name}}
	}
	r := &routine.Routine{Format: routine.Format, Name: "matrix", Version: 1,
		Variables: []routine.Variable{{Name: "q"}, {Name: "name"}, {Name: "picks", List: true}},
		Steps: []routine.Step{
			{ID: "shop", Kind: routine.KindGoto, URL: site.URL("/shop")},
			{ID: "no_thanks", Kind: routine.KindAct, Op: calls.ActClick, Target: target(`role=button[name="No thanks"]`, "button", "button", "no thanks"),
				Dismisses: &routine.Dismissal{Popup: `box "Join our newsletter"`}},
			{ID: "search", Kind: routine.KindAct, Op: calls.ActFill, Target: target("label=Search", "input", "textbox", "search"), Value: &routine.Value{From: "input", Slot: "q"}},
			{ID: "enter", Kind: routine.KindAct, Op: calls.ActPress, Target: target("label=Search", "input", "textbox", "search"), Key: "Enter"},
			{ID: "size", Kind: routine.KindAct, Op: calls.ActSelect, Target: target("label=Size", "select", "combobox", "size"), Value: &routine.Value{Literal: "Large"}},
			{ID: "more", Kind: routine.KindAct, Op: calls.ActClick, Target: target(`role=button[name="Show more"]`, "button", "button", "show more")},
			{ID: "ready", Kind: routine.KindVerify, Check: &routine.Check{Text: "Ready"}},
			{ID: "branch", Kind: routine.KindIf, Check: &routine.Check{Text: "Ready"},
				Then: []routine.Step{{ID: "then", Kind: routine.KindAct, Op: calls.ActClick, Target: target(`role=button[name="Then"]`, "button", "button", "then")}},
				Else: []routine.Step{{ID: "else", Kind: routine.KindAct, Op: calls.ActClick, Target: target(`role=button[name="Else"]`, "button", "button", "else")}}},
			{ID: "read", Kind: routine.KindExtract, Instruction: "every item", Into: "items", Recipe: items,
				Schema: json.RawMessage(`{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}`)},
			{ID: "rows", Kind: routine.KindEach, Instruction: "every item", Recipe: items, Do: []routine.Step{
				{ID: "add", Kind: routine.KindAct, Op: calls.ActClick, Target: &routine.Target{Positional: true, Place: "button:nth-of-type(1)",
					Fingerprint: calls.Fingerprint{Tag: "button", Role: "button", Name: "add"}}},
			}},
			{ID: "picks", Kind: routine.KindEach, Over: "picks", Do: []routine.Step{
				{ID: "pick", Kind: routine.KindGoto, URL: site.URL("/each?v=%row.name%")},
			}},
			{ID: "signup", Kind: routine.KindGoto, URL: site.URL("/form")},
			{ID: "fill", Kind: routine.KindForm, Answers: map[string]*routine.Value{"name": {From: "input", Slot: "name"}, "plan": {Literal: "Pro"}}},
			{ID: "lamps", Kind: routine.KindAPI, API: api, Into: "lamps", List: &routine.ListRead{Pages: 1}},
		}}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if r, err = routine.Parse(b); err != nil {
		t.Fatalf("the matrix routine does not load: %v", err)
	}
	return r
}

func matrixOf(res *replay.Result) matrixRun {
	st := res.Status
	if st != replay.StatusOK {
		st = string(res.Cause)
	}
	return matrixRun{status: st, msg: res.Message, data: res.Data}
}

// devtoolsBrowser starts the matrix's one Chromium with a DevTools port,
// and returns the port.
func devtoolsBrowser(t *testing.T) string {
	t.Helper()
	path := browsertest.Chrome(t)
	dir := t.TempDir()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic",
		"--remote-debugging-port=0", "--user-data-dir=" + dir}, browsertest.GuardArgs...)
	cmd := exec.Command(path, append(args, "about:blank")...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // the browser and its helpers
		_ = cmd.Wait()
	})
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if b, err := os.ReadFile(filepath.Join(dir, "DevToolsActivePort")); err == nil {
			if port := strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0]); port != "" {
				return port
			}
		}
	}
	t.Fatal("the browser wrote no DevToolsActivePort")
	return ""
}
