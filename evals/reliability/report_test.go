//go:build evals

package reliability

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/evals/report"
)

// tally is the counts of a set of runs.
type tally struct {
	Kind    string         `json:"kind,omitempty"`
	Runs    int            `json:"runs"`
	Passed  int            `json:"passed"`
	Healed  int            `json:"healed"`
	Calls   int            `json:"model_calls"`
	Stopped map[string]int `json:"stopped,omitempty"` // by cause
	Wrong   int            `json:"wrong_rows"`
	Missed  int            `json:"missed"` // stopped on a day the job could be done
}

func (t *tally) add(r run) {
	t.Runs++
	t.Calls += r.Calls
	t.Wrong += r.Wrong
	switch r.Outcome {
	case "passed":
		t.Passed++
	case "healed":
		t.Healed++
	default:
		if t.Stopped == nil {
			t.Stopped = map[string]int{}
		}
		t.Stopped[r.Cause]++
		if possible(r.Change) {
			t.Missed++
		}
	}
}

func (t *tally) stopped() int {
	n := 0
	for _, c := range t.Stopped {
		n += c
	}
	return n
}

func causes(m map[string]int) string {
	var parts []string
	for _, c := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s %d", c, m[c]))
	}
	return strings.Join(parts, ", ")
}

// maxFailed bounds the failed runs kept in the JSON (those that missed
// first).
const maxFailed = 40

// write is the eval's section of evals/results.
func write(t *testing.T, seed uint64, jobs, days int, runs []run, asked int) {
	all := &tally{}
	byJob, byChange := map[string]*tally{}, map[string]*tally{}
	kinds := map[string]string{}
	for _, j := range jobsByName() {
		kinds[j.name] = j.kind
	}
	var failed []run
	for _, r := range runs {
		all.add(r)
		if byJob[r.Job] == nil {
			byJob[r.Job] = &tally{Kind: kinds[r.Job]}
		}
		byJob[r.Job].add(r)
		if byChange[r.Change] == nil {
			byChange[r.Change] = &tally{}
		}
		byChange[r.Change].add(r)
		if r.Outcome == "stopped" {
			failed = append(failed, r)
		}
	}
	// The runs that stopped on a day the job could be done first: they
	// are the findings.
	slices.SortStableFunc(failed, func(a, b run) int {
		switch pa, pb := possible(a.Change), possible(b.Change); {
		case pa && !pb:
			return -1
		case pb && !pa:
			return 1
		}
		return 0
	})
	failed = failed[:min(len(failed), maxFailed)]
	possibleRuns := 0
	for _, r := range runs {
		if possible(r.Change) {
			possibleRuns++
		}
	}
	figures := map[string]any{
		"jobs": jobs, "days": days, "runs": len(runs), "passed": all.Passed, "healed": all.Healed, "stopped": all.stopped(),
		"wrong_rows": all.Wrong, "model_calls": all.Calls,
		"seed": seed, "possible_runs": possibleRuns, "missed": all.Missed, "approvals_asked": asked,
		"by_job": byJob, "by_cause": all.Stopped, "by_change": byChange, "failed_runs": failed, "failed_runs_kept": len(failed),
	}
	var md strings.Builder
	fmt.Fprintf(&md, "%d jobs recorded once on day 0, replayed on %d simulated days (seed %d): %d runs. "+
		"Passed %d, healed %d (%d model calls), stopped %d; wrong rows %d. "+
		"%d runs fell on a day the job could be done; %d of them stopped (missed). "+
		"Rows are counted against the server's truth of the day.\n\n", jobs, days, seed, len(runs), all.Passed, all.Healed, all.Calls, all.stopped(), all.Wrong, possibleRuns, all.Missed)
	md.WriteString("| job | kind | passed | healed (model calls) | stopped (causes) | missed | wrong rows |\n|---|---|---|---|---|---|---|\n")
	for _, name := range slices.Sorted(maps.Keys(byJob)) {
		b := byJob[name]
		fmt.Fprintf(&md, "| %s | %s | %d | %d (%d) | %d (%s) | %d | %d |\n", name, b.Kind, b.Passed, b.Healed, b.Calls, b.stopped(), causes(b.Stopped), b.Missed, b.Wrong)
	}
	md.WriteString("\n| day's change | runs | passed | healed (model calls) | stopped (causes) |\n|---|---|---|---|---|\n")
	for _, c := range slices.Sorted(maps.Keys(byChange)) {
		b := byChange[c]
		fmt.Fprintf(&md, "| %s | %d | %d | %d (%d) | %d (%s) |\n", c, b.Runs, b.Passed, b.Healed, b.Calls, b.stopped(), causes(b.Stopped))
	}
	// The published figures are the full 30 days (make evals-full); a
	// quick run keeps its own section rather than overwrite them.
	name := "reliability"
	if os.Getenv("WAYMARK_EVALS") != "full" {
		name = "reliability_quick"
	}
	if err := report.Write(report.Dir, report.Section{Name: name, Figures: figures, Markdown: md.String()}); err != nil {
		t.Error(err)
	}
	t.Log("\n" + md.String())
}

func jobsByName() []*job { return jobs() }
