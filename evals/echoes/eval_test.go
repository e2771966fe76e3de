//go:build evals

package echoes

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/evals/evaltest"
	"github.com/waymark-dev/waymark/evals/report"
	"github.com/waymark-dev/waymark/internal/adversarial"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
)

// TestMain closes the shared browser after the eval.
func TestMain(m *testing.M) { evaltest.Main(m) }

// count is leaked of total.
type count struct{ Total, Leaked int }

// tally is the eval's figures, safe for the pages' parallel runs.
type tally struct {
	mu                  sync.Mutex
	pages, echoes, leak int
	rawLeaks            int // pages whose secret came back as it was typed
	byEncoder, byChan   map[string]*count
	misses              []string
}

func (t *tally) add(e Echo, leaked bool, where string, page string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.echoes++
	for _, mk := range []struct {
		m map[string]*count
		k string
	}{{t.byEncoder, e.Encoder.Name}, {t.byChan, e.Channel.Name}} {
		m, k := mk.m, mk.k
		if m[k] == nil {
			m[k] = &count{}
		}
		m[k].Total++
		if leaked {
			m[k].Leaked++
		}
	}
	if leaked {
		t.leak++
		t.misses = append(t.misses, fmt.Sprintf("%s: %s into %s, readable in %s", page, e.Encoder.Name, e.Channel.Name, where))
	}
}

// TestEchoes types every page's secret with form fill --secret, waits for
// the page to spell it back, then reads what an agent reads (a look, the
// page info, the console, the network log, local storage, the fill's
// result) and counts the echoes readable in any of them (goal 0).
// ECHOES_SEED and ECHOES_PAGES choose the corpus (quick: 24 pages; full:
// 96).
func TestEchoes(t *testing.T) {
	seed := uint64(evaltest.Int("ECHOES_SEED", 27))
	n := 24
	if evaltest.Full() {
		n = 96
	}
	pages := Generate(seed, evaltest.Int("ECHOES_PAGES", n))
	res := &tally{byEncoder: map[string]*count{}, byChan: map[string]*count{}}
	start := time.Now()
	t.Run("pages", func(t *testing.T) {
		for _, p := range pages {
			t.Run(p.Name, func(t *testing.T) {
				t.Parallel()
				runPage(t, p, res)
			})
		}
	})
	t.Logf("seed %d: %d pages, %d echoes, %d readable (%d pages with the secret as typed) in %v",
		seed, res.pages, res.echoes, res.leak, res.rawLeaks, time.Since(start).Round(time.Second))
	for _, m := range res.misses {
		t.Log("leak: " + m)
	}
	if err := report.Write(report.Dir, section(seed, res)); err != nil {
		t.Error(err)
	}
}

func runPage(t *testing.T, p Page, res *tally) {
	srv := adversarial.NewServer(t, map[string]string{"/form": p.HTML})
	s, ctx := drivertest.Session(t, t.Name(), 60*time.Second)
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/form")}); err != nil {
		t.Fatal(err)
	}
	// What the page will write, read before the value is typed (and so
	// before the session knows it: from then on its replies mask it).
	lit, _ := json.Marshal(p.Secret)
	spelled := make([]string, len(p.Echoes))
	for i, e := range p.Echoes {
		r, err := s.Eval(ctx, calls.EvalRequest{Expression: "(v => " + e.Encoder.Expr + ")(" + string(lit) + ")"})
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(r.Value, &spelled[i]); err != nil {
			t.Fatalf("%s: %v (%s)", e.Encoder.Name, err, r.Value)
		}
	}
	fill, err := s.FillForm(ctx, calls.FormFillRequest{Answers: map[string]string{"name": "Ann Lee"}, Secrets: map[string]string{p.Label: p.Secret}})
	if err != nil {
		t.Fatal(err)
	}
	var con *calls.ConsoleLog
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if con, err = s.Console(ctx, calls.ConsoleRequest{}); err != nil {
			t.Fatal(err)
		}
		if b, _ := json.Marshal(con); strings.Contains(string(b), "echoed") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the page never echoed: console %s; fill %s", jsonOf(con), jsonOf(fill))
		}
	}
	requests := 0
	for _, e := range p.Echoes {
		if strings.HasPrefix(e.Channel.Name, "request") {
			requests++
		}
	}
	for deadline := time.Now().Add(10 * time.Second); srv.Count("GET", "") < 1+requests && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	snap, err := s.Snapshot(ctx, calls.SnapshotRequest{Full: true})
	if err != nil {
		t.Fatal(err)
	}
	info, _ := s.PageInfo(ctx)
	netw, _ := s.Network(ctx, calls.NetworkRequest{})
	store, _ := s.Storage(ctx, calls.StorageRequest{Area: "local"})
	outputs := map[string]string{
		"a look":          snap.Text + "\n" + snap.Title + "\n" + snap.URL,
		"the page info":   jsonOf(info),
		"the console":     jsonOf(con),
		"the network log": jsonOf(netw),
		"local storage":   jsonOf(store),
		"the fill":        jsonOf(fill),
	}
	res.mu.Lock()
	res.pages++
	for _, text := range outputs {
		if strings.Contains(text, p.Secret) {
			res.rawLeaks++
			break
		}
	}
	res.mu.Unlock()
	for i, e := range p.Echoes {
		var where []string
		for name, text := range outputs {
			if strings.Contains(text, spelled[i]) {
				where = append(where, name)
			}
		}
		sort.Strings(where)
		res.add(e, len(where) > 0, strings.Join(where, ", "), p.Name)
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func section(seed uint64, res *tally) report.Section {
	var md strings.Builder
	fmt.Fprintf(&md, "A secret typed by form fill --secret into %d pages that spell it back (seed %d): %d echoes, %d readable in an output; %d pages showed the secret as typed.\n\n",
		res.pages, seed, res.echoes, res.leak, res.rawLeaks)
	table := func(title string, m map[string]*count) {
		fmt.Fprintf(&md, "| %s | echoes | readable |\n|---|---|---|\n", title)
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&md, "| %s | %d | %d |\n", k, m[k].Total, m[k].Leaked)
		}
		md.WriteString("\n")
	}
	table("encoder", res.byEncoder)
	table("where the page put it", res.byChan)
	return report.Section{
		Name: "echoes",
		Figures: map[string]any{"seed": seed, "pages": res.pages, "echoes": res.echoes, "readable": res.leak,
			"pages_with_secret_as_typed": res.rawLeaks, "by_encoder": res.byEncoder, "by_place": res.byChan, "misses": res.misses},
		Markdown: strings.TrimSpace(md.String()),
	}
}
