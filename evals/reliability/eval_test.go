//go:build evals

package reliability

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/secret"
)

// run is one job replayed on one day.
type run struct {
	Job     string   `json:"job"`
	Day     int      `json:"day"`
	Change  string   `json:"change"`
	Outcome string   `json:"outcome"` // passed, healed, stopped
	Cause   string   `json:"cause,omitempty"`
	Heals   []string `json:"heals,omitempty"`
	Calls   int      `json:"model_calls,omitempty"`
	Wrong   int      `json:"wrong_rows,omitempty"`
	Missing int      `json:"missing_rows,omitempty"`
	Step    string   `json:"step,omitempty"`
	Message string   `json:"message,omitempty"`
	NetLog  *wire    `json:"netlog,omitempty"`
	MS      int64    `json:"ms"`
	// SessionMS is the time around the replay: the session opened and
	// closed, the truth counted, the NetLog read.
	SessionMS int64 `json:"session_ms"`
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// TestReliability records the twelve jobs on day 0 and replays each on
// every simulated day after, in a fresh session of one shared browser
// (which writes a NetLog), with the scripted model for heals. The quick
// set is 6 days; WAYMARK_EVALS=full, 30. RELIABILITY_SEED and
// RELIABILITY_DAYS choose the seed and the days.
func TestReliability(t *testing.T) {
	days := 6
	if os.Getenv("WAYMARK_EVALS") == "full" {
		days = 30
	}
	days = envInt("RELIABILITY_DAYS", days)
	seed := uint64(envInt("RELIABILITY_SEED", 30))

	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Minute)
	defer cancel()
	b, err := driver.Launch(ctx, driver.Options{ExecPath: browsertest.Chrome(t), Args: browsertest.GuardArgs, NetLog: filepath.Join(t.TempDir(), "netlog.json")})
	if err != nil {
		t.Fatalf("launch: %v", err)
	}
	defer b.Close()

	js := jobs()
	if only := os.Getenv("RELIABILITY_JOBS"); only != "" {
		js = slices.DeleteFunc(js, func(j *job) bool { return !slices.Contains(strings.Split(only, ","), j.name) })
	}
	st := newSite(seed, js)
	srv := httptest.NewServer(st)
	defer srv.Close()

	// Day 0: each job recorded once.
	began := time.Now()
	defer func() { t.Logf("%d jobs over %d days in %s", len(js), days, time.Since(began).Round(time.Second)) }()
	routines := map[string]*routine.Routine{}
	for _, j := range js {
		r, err := recordJob(ctx, b, st, j, srv.URL)
		if err != nil {
			t.Errorf("record %s: %v", j.name, err)
			continue
		}
		routines[j.name] = r
	}

	t.Logf("recorded in %s", time.Since(began).Round(time.Millisecond))
	var runs []run
	var asked atomic.Int64
	par := envInt("RELIABILITY_PARALLEL", 3)
	for day := 1; day <= days; day++ {
		st.setDay(day)
		// The day's jobs, a few at a time (each in its own session; a
		// site's requests are its own path, so its NetLog is too).
		out := make([]run, len(js))
		sem := make(chan struct{}, par)
		var wg sync.WaitGroup
		for i, j := range js {
			r := routines[j.name]
			if r == nil {
				continue
			}
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				out[i] = replayJob(ctx, t, b, st, j, r, day, &asked)
			}()
		}
		wg.Wait()
		for _, one := range out {
			if one.Job == "" {
				continue
			}
			runs = append(runs, one)
			t.Logf("day %2d %-10s %-8s %-7s %-16s calls %d wrong %d missing %d %dms (+%dms) %s %s", day, one.Job, one.Change, one.Outcome, one.Cause, one.Calls, one.Wrong, one.Missing, one.MS, one.SessionMS, one.Step, one.Message)
		}
	}
	write(t, seed, len(js), days, runs, int(asked.Load()))
}

// recordJob records a job on day 0 in a session of its own, and checks
// the routine loads as a file would.
func recordJob(ctx context.Context, b *driver.Browser, st *site, j *job, base string) (*routine.Routine, error) {
	name := "record-" + j.name
	s, err := b.Session(ctx, name)
	if err != nil {
		return nil, err
	}
	defer b.CloseSession(name)
	rc := &recorder{ctx: ctx, s: s, site: st, job: j, base: base,
		r: &routine.Routine{Format: routine.Format, Name: j.name, Version: 1}}
	if err := j.record(rc); err != nil {
		return nil, err
	}
	if rc.err != nil {
		return nil, rc.err
	}
	raw, err := json.MarshalIndent(rc.r, "", "  ")
	if err != nil {
		return nil, err
	}
	r, err := routine.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("the recorded routine does not load: %w\n%s", err, raw)
	}
	return r, nil
}

// replayJob replays a job's recording on a day and checks what it
// returned, and what reached the server, against the day's truth.
func replayJob(ctx context.Context, t *testing.T, b *driver.Browser, st *site, j *job, r *routine.Routine, day int, asked *atomic.Int64) (one run) {
	t.Helper()
	one = run{Job: j.name, Day: day, Change: st.change(j, day)}
	name := fmt.Sprintf("%s-day%d", j.name, day)
	s0 := time.Now()
	defer func() { one.SessionMS = time.Since(s0).Milliseconds() - one.MS }()
	rctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	s, err := b.Session(rctx, name)
	if err != nil {
		t.Errorf("session: %v", err)
		one.Outcome, one.Cause, one.Message = "stopped", "error", err.Error()
		return one
	}
	defer b.CloseSession(name)
	m := &model{site: st, job: j, day: day}
	vars := map[string]string{}
	var entries []map[string]string
	if j.entries != nil {
		entries = j.entries(st, day)
		if j.kind == "each" {
			raw, _ := json.Marshal(entries)
			vars["entries"] = string(raw)
		} else {
			for k, v := range entries[0] {
				vars[k] = v
			}
		}
	}
	if j.kind == "sign-in" {
		vars["username"] = user
	}
	opts := replay.Options{Model: m, KeepHeals: replay.KeepNever, Submits: replay.SubmitsAllow, NoHand: true, CheckTimeout: 2 * time.Second,
		Vars: vars, Secrets: map[string]secret.Value{"password": secret.New("password", password)},
		// A model's pick of a submit is asked again whatever Submits
		// says: the eval is the person, and says yes (counted).
		Approve: func(context.Context, string, calls.Approval) (bool, error) { asked.Add(1); return true, nil },
		NetLog: func(ctx context.Context, since, until time.Time) (string, error) {
			res, err := s.NetLog(ctx, calls.NetLogRequest{SinceUnixMS: since.UnixMilli(), UntilUnixMS: until.UnixMilli()})
			if err != nil {
				return "", err
			}
			return res.Brief, nil
		}}
	start := time.Now()
	res, err := replay.Run(rctx, s, r, opts)
	one.MS = time.Since(start).Milliseconds()
	if err != nil {
		t.Errorf("%s day %d: replay refused: %v", j.name, day, err)
		one.Outcome, one.Cause, one.Message = "stopped", "error", err.Error()
		return one
	}
	one.Calls = res.ModelCalls
	for _, h := range res.Heals {
		one.Heals = append(one.Heals, h.How)
	}
	switch {
	case res.Status == replay.StatusOK && len(res.Heals) == 0:
		one.Outcome = "passed"
	case res.Status == replay.StatusOK:
		one.Outcome = "healed"
	default:
		one.Outcome, one.Cause, one.Message = "stopped", string(res.Cause), trim(res.Message, envInt("RELIABILITY_MSG", 200))
		for _, sr := range res.Steps {
			if sr.Status == "stopped" || sr.Status == replay.StatusCanceled {
				one.Step = sr.Path
				if sr.NetLog != "" {
					one.Message += " | step NetLog: " + trim(sr.NetLog, 160)
				}
			}
		}
		w0 := time.Now()
		one.NetLog = wireOf(rctx, s, start, "/j/"+j.name+"/")
		one.NetLog.MS = time.Since(w0).Milliseconds()
	}

	got, want := st.got(j, day, res, entries)
	if j.name == "approvals" && one.Outcome != "stopped" {
		// The last press's request may still be on its way when the
		// replay returns: await it (bounded) before counting.
		for deadline := time.Now().Add(3 * time.Second); len(got) < len(want) && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
			got, want = st.got(j, day, res, entries)
		}
	}
	one.Wrong, one.Missing = compare(got, want)
	if one.Wrong > 0 {
		t.Errorf("%s day %d (%s): %d wrong row(s): got %v, the site holds %v", j.name, day, one.Change, one.Wrong, got, want)
	}
	if one.Outcome != "stopped" && one.Missing > 0 {
		t.Errorf("%s day %d (%s): %s with %d row(s) short: got %v, want %v", j.name, day, one.Change, one.Outcome, one.Missing, got, want)
	}
	if one.Outcome != "stopped" && !possible(one.Change) {
		t.Errorf("%s day %d (%s): %s on a day the job cannot be done", j.name, day, one.Change, one.Outcome)
	}
	return one
}

// got is what the job returned (the rows of its data) or did (the
// entries and approvals that reached the server), and want the day's
// truth, kept by the site.
func (s *site) got(j *job, day int, res *replay.Result, entries []map[string]string) (got, want []map[string]string) {
	ledger, approved := s.saved(j.name)
	switch {
	case j.entries != nil:
		return ledger, entries
	case j.name == "approvals":
		for _, id := range approved {
			got = append(got, map[string]string{"id": id})
		}
		for _, r := range s.rows(j, day) {
			want = append(want, map[string]string{"id": r["id"]})
		}
		return got, want
	}
	want = s.rows(j, day)
	raw, ok := res.Data["rows"]
	if !ok {
		return nil, want
	}
	if j.kind == "sheet" {
		var g struct{ Rows [][]string }
		_ = json.Unmarshal(raw, &g)
		for i, row := range g.Rows {
			if i == 0 || strings.Join(row, "") == "" {
				continue
			}
			m := map[string]string{}
			for k, f := range j.fields {
				if k < len(row) {
					m[f] = row[k]
				}
			}
			got = append(got, m)
		}
		return got, want
	}
	var rows []map[string]any
	_ = json.Unmarshal(raw, &rows)
	for _, row := range rows {
		m := map[string]string{}
		for _, f := range j.fields {
			if v, ok := row[f]; ok && v != nil {
				m[f] = fmt.Sprint(v)
			}
		}
		got = append(got, m)
	}
	return got, want
}

// compare counts the rows got that are not among want (wrong: each row
// of want matches one row got at most) and those of want never got.
func compare(got, want []map[string]string) (wrong, missing int) {
	key := func(m map[string]string) string {
		b, _ := json.Marshal(m) // sorted keys
		return string(b)
	}
	left := map[string]int{}
	for _, w := range want {
		left[key(w)]++
	}
	for _, g := range got {
		if left[key(g)] > 0 {
			left[key(g)]--
			continue
		}
		wrong++
	}
	for _, n := range left {
		missing += n
	}
	return wrong, missing
}

func trim(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
