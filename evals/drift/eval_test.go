//go:build evals

package drift

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/evals/evaltest"
	"github.com/waymark-dev/waymark/evals/report"
	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
)

// TestMain closes the shared browser after the eval.
func TestMain(m *testing.M) { evaltest.Main(m) }

// Outcomes of one run on one variant, from what reached the server.
const (
	Right   = "right"
	Wrong   = "wrong"   // pressed a control it should not have
	Refused = "refused" // pressed nothing where it should have pressed
)

// judge compares what reached the server with what the variant expects.
// On a variant that must be refused any press is wrong, the target's
// included: on an ambiguity the original pressed is a guess.
func judge(v Variant, hits []string) (string, string) {
	if len(hits) == 0 {
		if v.Expect == Refuse {
			return Right, "refused"
		}
		return Refused, "pressed nothing"
	}
	for _, h := range hits {
		if h != Target {
			return Wrong, "pressed " + h
		}
	}
	if v.Expect == Refuse {
		return Wrong, "pressed the original, one of two equal candidates (a guess)"
	}
	return Right, "pressed the target"
}

// tally counts one runner's outcomes by kind.
type tally struct {
	n, right, wrong, refused map[string]int
	causes                   map[string]int
	modelCalls               map[string]int
	oneCall                  map[string]int
}

func newTally() *tally {
	return &tally{n: map[string]int{}, right: map[string]int{}, wrong: map[string]int{}, refused: map[string]int{}, causes: map[string]int{}, modelCalls: map[string]int{}, oneCall: map[string]int{}}
}

func (t *tally) add(kind, outcome string) {
	t.n[kind]++
	switch outcome {
	case Right:
		t.right[kind]++
	case Wrong:
		t.wrong[kind]++
	case Refused:
		t.refused[kind]++
	}
}

func (t *tally) pct(kind string) float64 {
	if t.n[kind] == 0 {
		return 0
	}
	return float64(int(1000*float64(t.right[kind])/float64(t.n[kind])+0.5)) / 10
}

func (t *tally) wrongs() int {
	n := 0
	for _, w := range t.wrong {
		n += w
	}
	return n
}

// Miss is one run that did not do what the variant expects.
type Miss struct {
	Scenario string `json:"scenario"`
	Variant  string `json:"variant"`
	Kind     string `json:"kind"`
	Runner   string `json:"runner"` // waymark, waymark+model
	Change   string `json:"change"`
	Happened string `json:"happened"`
}

// TestDrift records a routine on each scenario's original page, replays
// it on every variant with no model (and with a model that answers as a
// real one would, on the renamed and cosmetic kinds), clicks Playwright's
// locators on the same variants, and counts at the server what was
// pressed. DRIFT_SEED and DRIFT_SCENARIOS choose the corpus;
// WAYMARK_EVALS=full gives every scenario more variants.
func TestDrift(t *testing.T) {
	start := time.Now()
	seed := uint64(evaltest.Int("DRIFT_SEED", 30))
	counts := Quick
	if evaltest.Full() {
		counts = Full
	}
	cases := Generate(seed, evaltest.Int("DRIFT_SCENARIOS", len(builders)), counts)
	srv := NewServer(cases)
	hs := httptest.NewServer(srv)
	defer hs.Close()

	// Playwright runs beside the recording and the replays: its own
	// browser, its own loads.
	chromium := browsertest.Chrome(t)
	pwDone := make(chan *pwResult, 1)
	var pwAt time.Duration
	go func() {
		res := playwright(t, chromium, cases, hs.URL)
		pwAt = time.Since(start)
		pwDone <- res
	}()
	routines := record(t, cases, srv, hs.URL)
	recorded := time.Since(start)
	// The model's runs: every rename, and cosmetic pages to count the
	// calls a replay makes there when it has a model (the quick set takes
	// one cosmetic variant a scenario, the full set all).
	full := evaltest.Full()
	withModel := func(v Variant) bool {
		return v.Kind == KindRenamed || v.Kind == KindCosmetic && (full || v.Name == "cosmetic-1")
	}
	runs := replayAll(t, cases, routines, srv, withModel,
		func(name string) (calls.Session, context.Context) {
			return drivertest.Session(t, "drift-"+name, 5*time.Minute)
		})
	replayed := time.Since(start)
	pw := <-pwDone
	t.Logf("recorded in %s, replayed by %s, Playwright done by %s", recorded.Round(time.Second), replayed.Round(time.Second), pwAt.Round(time.Second))

	wm, wmModel := newTally(), newTally()
	var misses []Miss
	variants := 0
	for _, c := range cases {
		if routines[c.Name] != nil {
			r := routines[c.Name].Steps[len(routines[c.Name].Steps)-1].Target
			t.Logf("%s: recorded %s (row %v)", c.Name, r.Locator, r.Fingerprint.Row)
		}
		for _, v := range c.Variants {
			if v.Kind != KindOriginal {
				variants++
			}
			for _, run := range runs[c.Name+"/"+v.Name] {
				outcome, what := judge(v, run.Hits)
				tl, runner := wm, "waymark"
				if run.Mode == "model" {
					tl, runner = wmModel, "waymark+model"
					tl.modelCalls[v.Kind] += run.ModelCalls
					if outcome == Right && run.ModelCalls <= 1 {
						tl.oneCall[v.Kind]++
					}
				}
				tl.add(v.Kind, outcome)
				if len(run.Hits) == 0 {
					tl.causes[v.Kind+"/"+run.Cause]++
				}
				happened := what
				if run.Cause != "" || run.Status != "ok" {
					happened += fmt.Sprintf(" (%s %s: %s)", run.Status, run.Cause, clip(run.Message, 240))
				}
				if run.ModelCalls > 0 {
					happened += fmt.Sprintf(" [%d model call(s)]", run.ModelCalls)
				}
				miss := outcome != Right
				if v.Kind == KindRenamed && run.Mode == "no-model" && outcome == Refused {
					miss = false // with no model a rename is refused: the model's run is the one that heals
				}
				if v.Kind == KindRenamed && run.Mode == "model" && run.ModelCalls > 1 {
					miss = true
				}
				if v.Kind == KindCosmetic && run.Mode == "model" && run.ModelCalls > 0 {
					miss = true
				}
				if miss {
					misses = append(misses, Miss{Scenario: c.Name, Variant: v.Name, Kind: v.Kind, Runner: runner, Change: v.What, Happened: happened})
				}
			}
		}
	}

	// Playwright.
	pwT := map[string]*tally{}
	pwRefused := map[string]map[string]int{}
	if pw != nil {
		for _, b := range Baselines {
			pwT[b], pwRefused[b] = newTally(), map[string]int{}
		}
		byName := map[string]*Case{}
		for i := range cases {
			byName[cases[i].Name] = &cases[i]
		}
		for _, s := range pw.Scenarios {
			if len(s.Problems) > 0 {
				t.Errorf("playwright, %s: %s", s.Name, strings.Join(s.Problems, "; "))
			}
			t.Logf("playwright, %s (%d ms): %v", s.Name, s.MS, s.Locators)
			c := byName[s.Name]
			for _, run := range s.Runs {
				i := slices.IndexFunc(c.Variants, func(v Variant) bool { return v.Name == run.Variant })
				if i < 0 || pwT[run.Locator] == nil {
					continue
				}
				v := c.Variants[i]
				clicked := run.Locator
				if run.Same != "" {
					clicked = run.Same
				}
				outcome, _ := judge(v, srv.Hits(PlaywrightKey(clicked, c.Name, v.Name)))
				pwT[run.Locator].add(v.Kind, outcome)
				if run.Outcome != "clicked" {
					pwRefused[run.Locator][run.Outcome]++
				}
			}
		}
	}

	figures := map[string]any{
		"seed": seed, "scenarios": len(cases), "variants": variants,
		"originals_right":             wm.right[KindOriginal],
		"cosmetic_right_pct":          wm.pct(KindCosmetic),
		"wrong_presses":               wm.wrongs() + wmModel.wrongs(),
		"substitutions_refused_pct":   wm.pct(KindSubstitution),
		"ambiguities_refused_pct":     wm.pct(KindAmbiguity),
		"renames_healed_one_call_pct": pctOf(wmModel.oneCall[KindRenamed], wmModel.n[KindRenamed]),
		"renames_no_model":            map[string]int{"pressed": wm.right[KindRenamed], "refused": wm.refused[KindRenamed], "wrong": wm.wrong[KindRenamed]},
		"model_calls_cosmetic":        wmModel.modelCalls[KindCosmetic],
		"model_runs_cosmetic":         wmModel.n[KindCosmetic],
		"renames_model_calls":         wmModel.modelCalls[KindRenamed], // renames_healed_one_call_pct: pressed right with at most one call
		"rows_right_pct":              wm.pct(KindRows),
		"rows_wrong_presses":          wm.wrong[KindRows],
		"refusal_causes":              wm.causes,
		"refusal_causes_with_model":   wmModel.causes,
		"misses":                      misses,
		"duration_s":                  int(time.Since(start).Seconds()),
		"load_average":                loadAverage(),
	}
	baselines := map[string]any{}
	for _, b := range Baselines {
		if tl := pwT[b]; tl != nil {
			baselines[b] = map[string]any{
				"originals_right": tl.right[KindOriginal], "cosmetic_right_pct": tl.pct(KindCosmetic), "wrong_presses": tl.wrongs(),
				"substitutions_refused_pct": tl.pct(KindSubstitution), "ambiguities_refused_pct": tl.pct(KindAmbiguity),
				"renames_pressed_pct": tl.pct(KindRenamed), "rows_right_pct": tl.pct(KindRows), "rows_wrong_presses": tl.wrong[KindRows],
				"not_clicked": pwRefused[b], "wrong_by_kind": tl.wrong,
			}
		}
	}
	figures["baselines"] = baselines
	if pw != nil {
		figures["playwright"] = pw.Version
	}

	md := markdown(cases, variants, seed, wm, wmModel, pwT, misses, pw) +
		fmt.Sprintf("\nThe run took %s (load average %s).\n", time.Since(start).Round(time.Second), loadAverage())
	t.Log("\n" + md)
	if err := report.Write(report.Dir, report.Section{Name: "drift", Figures: figures, Markdown: md}); err != nil {
		t.Error(err)
	}
}

// loadAverage is the machine's load when the eval ended (Linux), as
// /proc/loadavg gives it: the eval's duration means little without it.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

func pctOf(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(int(1000*float64(a)/float64(b)+0.5)) / 10
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func markdown(cases []Case, variants int, seed uint64, wm, wmModel *tally, pwT map[string]*tally, misses []Miss, pw *pwResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "A routine recorded on each of %d app pages, replayed on %d changed copies (seed %d); presses counted at the server.\n\n", len(cases), variants, seed)
	b.WriteString("| runner | cosmetic pressed right | wrong presses | substitutions refused | ambiguities refused | renames | rows right |\n|---|---|---|---|---|---|---|\n")
	frac := func(tl *tally, kind string) string {
		return fmt.Sprintf("%d/%d", tl.right[kind], tl.n[kind])
	}
	fmt.Fprintf(&b, "| waymark, no model | %s (%.1f %%) | %d | %s | %s | %d pressed, %d refused | %s |\n",
		frac(wm, KindCosmetic), wm.pct(KindCosmetic), wm.wrongs(), frac(wm, KindSubstitution), frac(wm, KindAmbiguity),
		wm.right[KindRenamed], wm.refused[KindRenamed], frac(wm, KindRows))
	fmt.Fprintf(&b, "| waymark, with a model | %s, %d model calls | %d | – | – | %d/%d pressed with at most one model call (%d calls in all) | – |\n",
		frac(wmModel, KindCosmetic), wmModel.modelCalls[KindCosmetic], wmModel.wrongs(), wmModel.oneCall[KindRenamed], wmModel.n[KindRenamed], wmModel.modelCalls[KindRenamed])
	for _, name := range Baselines {
		tl := pwT[name]
		if tl == nil {
			continue
		}
		fmt.Fprintf(&b, "| Playwright %s | %s (%.1f %%) | %d | %s | %s | %d pressed | %s |\n",
			name, frac(tl, KindCosmetic), tl.pct(KindCosmetic), tl.wrongs(), frac(tl, KindSubstitution), frac(tl, KindAmbiguity), tl.right[KindRenamed], frac(tl, KindRows))
	}
	if pw != nil {
		fmt.Fprintf(&b, "\nPlaywright %s (playwright-core) on the same Chromium: a strict-mode error or no match counts as refused.\n", pw.Version)
	}
	if len(misses) > 0 {
		b.WriteString("\nwaymark's misses:\n\n| scenario | variant | runner | change | what happened |\n|---|---|---|---|---|\n")
		for _, m := range misses {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", m.Scenario, m.Variant, m.Runner, m.Change, strings.ReplaceAll(clip(m.Happened, 200), "|", "/"))
		}
	}
	return b.String()
}
