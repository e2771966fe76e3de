//go:build evals

package shapes

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/evals/report"
	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/pilot"
)

// TestMain reads several cases at once (four, or -parallel N): most of a
// case's time is the page's and the browser's, not this process's. It
// closes the shared browser after the eval.
func TestMain(m *testing.M) {
	browsertest.Parallel(4)
	code := m.Run()
	drivertest.CloseDriver()
	os.Exit(code)
}

// Miss is a case that did not come out right, and why: a figure, not a
// failure (a shape whose feature is not built yet is reported here).
type Miss struct {
	Class  string   `json:"class"`
	Case   string   `json:"case"`
	Traits []string `json:"traits,omitempty"`
	Why    string   `json:"why"`
}

// tally is one class's figures.
type tally struct {
	cases, right, kept, calls int // kept: recipes kept, fields read back or APIs learned
	rows, rowsRight           int
	fields, fieldsBack        int
}

// results gathers every class's figures and misses.
type results struct {
	mu     sync.Mutex
	by     map[string]*tally
	misses []Miss
}

func (r *results) class(name string) *tally {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.by[name] == nil {
		r.by[name] = &tally{}
	}
	return r.by[name]
}

// add adds a case's figures to its class's.
func (r *results) add(class string, c *tally) {
	t := r.class(class)
	r.mu.Lock()
	defer r.mu.Unlock()
	t.cases += c.cases
	t.right += c.right
	t.kept += c.kept
	t.calls += c.calls
	t.rows += c.rows
	t.rowsRight += c.rowsRight
	t.fields += c.fields
	t.fieldsBack += c.fieldsBack
}

func (r *results) miss(class, name string, traits []string, format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.misses = append(r.misses, Miss{Class: class, Case: name, Traits: traits, Why: fmt.Sprintf(format, args...)})
}

// TestShapes reads every case of the corpus and writes the shapes section
// of evals/results. SHAPES_SEED chooses the corpus; WAYMARK_EVALS=full
// makes it larger; SHAPES_ONLY=lists (forms, apis, sheets) runs one class.
func TestShapes(t *testing.T) {
	seed := uint64(27)
	if n, err := strconv.ParseUint(os.Getenv("SHAPES_SEED"), 10, 64); err == nil {
		seed = n
	}
	sizes := Quick
	if os.Getenv("WAYMARK_EVALS") == "full" {
		sizes = Full
	}
	corpus := Generate(seed, sizes)
	res := &results{by: map[string]*tally{}}
	only := os.Getenv("SHAPES_ONLY")
	start := time.Now()
	if only == "" || only == "lists" {
		t.Run("lists", func(t *testing.T) { runLists(t, corpus.Lists, res) })
	}
	if only == "" || only == "forms" {
		t.Run("forms", func(t *testing.T) { runForms(t, corpus.Forms, res) })
	}
	if only == "" || only == "apis" {
		t.Run("apis", func(t *testing.T) { runAPIs(t, corpus.APIs, res) })
	}
	if only == "" || only == "sheets" {
		t.Run("sheets", func(t *testing.T) { runSheets(t, corpus.Sheets, res) })
	}
	if only != "" {
		t.Logf("SHAPES_ONLY=%s: the report is left as it was", only)
		for _, m := range res.misses {
			t.Logf("miss: %s %s: %s", m.Class, m.Case, m.Why)
		}
		return
	}
	writeReport(t, seed, res, time.Since(start))
}

func writeReport(t *testing.T, seed uint64, res *results, took time.Duration) {
	l, f, a, s, ats := res.class("lists"), res.class("forms"), res.class("apis"), res.class("sheets"), res.class("ats")
	sort.SliceStable(res.misses, func(i, j int) bool {
		a, b := res.misses[i], res.misses[j]
		return a.Class < b.Class || a.Class == b.Class && a.Case < b.Case
	})
	if res.misses == nil {
		res.misses = []Miss{}
	}
	figures := map[string]any{
		"seed": seed, "seconds": int(took.Seconds()),
		"lists": l.cases, "lists_right": l.right, "recipes_kept": l.kept, "list_rows": l.rows, "list_rows_right": l.rowsRight,
		"forms": f.cases, "forms_right": f.right, "fields": f.fields, "fields_read_back": f.fieldsBack,
		"ats_pages": ats.cases, "ats_named": ats.right,
		"apis": a.cases, "apis_learned": a.kept, "apis_right": a.right, "api_rows": a.rows, "api_rows_right": a.rowsRight,
		"sheets": s.cases, "sheets_right": s.right, "sheet_tables_named": s.kept, "sheet_rows": s.rows, "sheet_rows_right": s.rowsRight,
		"model_calls": l.calls + f.calls + a.calls + s.calls,
		"misses":      res.misses,
	}
	var md strings.Builder
	fmt.Fprintf(&md, "The corpus of shapes real sites have (seed %d, generated; truth kept outside the pages), read on loopback with a scripted model that answers from the page.\n\n", seed)
	md.WriteString("| class | cases | right | kept / read back / learned | rows right | model calls |\n|---|---|---|---|---|---|\n")
	fmt.Fprintf(&md, "| lists | %d | %d | %d recipes kept | %d of %d | %d |\n", l.cases, l.right, l.kept, l.rowsRight, l.rows, l.calls)
	fmt.Fprintf(&md, "| forms | %d | %d | %d of %d fields read back; %d of %d ATS pages named | — | %d |\n", f.cases, f.right, f.fieldsBack, f.fields, ats.right, ats.cases, f.calls)
	fmt.Fprintf(&md, "| APIs | %d | %d | %d APIs learned | %d of %d | %d |\n", a.cases, a.right, a.kept, a.rowsRight, a.rows, a.calls)
	fmt.Fprintf(&md, "| sheets | %d | %d | %d tables named | %d of %d | %d |\n", s.cases, s.right, s.kept, s.rowsRight, s.rows, s.calls)
	if len(res.misses) > 0 {
		md.WriteString("\nMisses (evals/results/shapes.json lists them all):\n\n")
		for _, m := range res.misses {
			fmt.Fprintf(&md, "- %s %s: %s\n", m.Class, m.Case, oneLine(m.Why, 200))
		}
	}
	if err := report.Write(report.Dir, report.Section{Name: "shapes", Figures: figures, Markdown: md.String()}); err != nil {
		t.Error(err)
	}
	t.Log(md.String())
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// pageModel is the scripted model of the eval: asked to read a page, it
// answers the truth rows whose key the page it was given shows, in the
// truth's order, as a model that reads right would. It never answers a
// row the page did not show.
type pageModel struct {
	mu    sync.Mutex
	rows  []map[string]any
	key   string
	calls int
}

func (m *pageModel) Next(_ context.Context, turn pilot.Turn) (pilot.Reply, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls++
	if turn.Purpose != pilot.PurposeExtract || len(turn.Messages) == 0 {
		return pilot.Reply{}, fmt.Errorf("pageModel: a call for %q it cannot answer", turn.Purpose)
	}
	page := turn.Messages[0].Text
	out := []map[string]any{}
	for _, r := range m.rows {
		if k, _ := r[m.key].(string); k != "" && strings.Contains(page, k) {
			out = append(out, r)
		}
	}
	b, _ := json.Marshal(out)
	return pilot.Reply{Data: b, Model: "shapes-page-reader"}, nil
}

func (m *pageModel) n() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.calls
}

// sameValue reports whether a value read is the truth's: numbers as
// numbers, a date by its day, null only for null.
func sameValue(got, want any) bool {
	switch w := want.(type) {
	case nil:
		return got == nil
	case float64:
		g, ok := number(got)
		return ok && math.Abs(g-w) < 1e-6
	case bool:
		g, ok := got.(bool)
		return ok && g == w
	case string:
		g, ok := got.(string)
		if !ok {
			return false
		}
		return g == w || (len(w) == 10 && w[4] == '-' && strings.HasPrefix(g, w))
	}
	return false
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil
	}
	return 0, false
}

// compareRows matches rows read with the truth by key: right counts the
// truth rows read with every field right; wrong names the first row read
// with a value other than the truth's (a row presented as right that is
// not), lost the truth rows not read at all, extra the rows read that
// the truth does not have.
func compareRows(got, want []map[string]any, key string, fields []string) (right int, wrong string, lost, extra int) {
	byKey := map[string]map[string]any{}
	for _, g := range got {
		k := fmt.Sprint(g[key])
		if _, ok := byKey[k]; ok {
			extra++ // a row read twice
		}
		byKey[k] = g
	}
	known := map[string]bool{}
	for _, w := range want {
		k := fmt.Sprint(w[key])
		known[k] = true
		g, ok := byKey[k]
		if !ok {
			lost++
			continue
		}
		ok = true
		for _, f := range fields {
			if !sameValue(g[f], w[f]) {
				ok = false
				if wrong == "" {
					wrong = fmt.Sprintf("%s %q: %s reads %v, the page shows %v", key, k, f, show(g[f]), show(w[f]))
				}
			}
		}
		if ok {
			right++
		}
	}
	for k := range byKey {
		if !known[k] {
			extra++
		}
	}
	return right, wrong, lost, extra
}

// valueNotShown names the first value read that is neither the truth's
// nor null: a value the page does not show (a null where the page shows
// one is a value lost, counted as a row not right).
func valueNotShown(got, want []map[string]any, key string, fields []string) string {
	byKey := map[string]map[string]any{}
	for _, w := range want {
		byKey[fmt.Sprint(w[key])] = w
	}
	for _, g := range got {
		w, ok := byKey[fmt.Sprint(g[key])]
		if !ok {
			return fmt.Sprintf("a row the page does not show: %s", show(g))
		}
		for _, f := range fields {
			if g[f] != nil && !sameValue(g[f], w[f]) {
				return fmt.Sprintf("%s %v: %s reads %s, the page shows %s", key, g[key], f, show(g[f]), show(w[f]))
			}
		}
	}
	return ""
}

func show(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
