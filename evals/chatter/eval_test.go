//go:build evals

package chatter

import (
	"errors"
	"fmt"
	"strings"
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

// reached says whether the server got a request whose path starts with
// path.
func reached(srv *adversarial.Server, path string) bool {
	for _, r := range srv.Requests() {
		if r.Method != "GET" && strings.HasPrefix(r.Path, path) {
			return true
		}
	}
	return false
}

// TestFriction clicks every page's plain button with the gate on
// (Submits "ask", as a recording or a replay that asks before a submit)
// and counts: chatter pages that asked for approval (goal 0), chatter
// that never reached the server, and commits that reached it without
// approval (must be 0). Then again with each page's send started after
// the click's step returned, as a timer or a debounce starts it (the
// gate's watch after the step): chatter must still go, commits must be
// stopped and told in the page's look. CHATTER_SEED, CHATTER_PAGES and
// CHATTER_COMMITS choose the corpus.
func TestFriction(t *testing.T) {
	seed := uint64(evaltest.Int("CHATTER_SEED", 27))
	pages := Generate(seed, evaltest.Int("CHATTER_PAGES", 24), evaltest.Int("CHATTER_COMMITS", 12))
	var now, late figures
	t.Run("in the step", func(t *testing.T) { now = friction(t, pages, false) })
	t.Run("after the step", func(t *testing.T) { late = friction(t, pages, true) })
	for _, f := range []struct {
		when string
		f    figures
	}{{"in the step", now}, {"after the step", late}} {
		t.Logf("seed %d, sends %s: %d chatter pages, %d asked for approval, %d sends lost; %d commit pages, %d held, %d reached the server without approval",
			seed, f.when, f.f.chatter, f.f.asked, f.f.lost, f.f.commits, f.f.held, f.f.leaked)
	}
	err := report.Write(report.Dir, report.Section{
		Name: "chatter",
		Figures: map[string]any{"seed": seed, "chatter_pages": now.chatter, "asked": now.asked, "lost": now.lost,
			"commit_pages": now.commits, "held": now.held, "leaked": now.leaked,
			"late_asked": late.asked, "late_lost": late.lost, "late_held": late.held, "late_leaked": late.leaked},
		Markdown: fmt.Sprintf("The submit gate on %d pages that only chatter and %d that commit (seed %d), each page's send started in the click's step, then after it (a timer's).\n\n"+
			"| sent | chatter pages | asked for approval | sends lost | commit pages | held | reached the server unapproved |\n"+
			"|---|---|---|---|---|---|---|\n| in the step | %d | %d | %d | %d | %d | %d |\n| after the step | %d | %d | %d | %d | %d | %d |",
			now.chatter, now.commits, seed, now.chatter, now.asked, now.lost, now.commits, now.held, now.leaked,
			late.chatter, late.asked, late.lost, late.commits, late.held, late.leaked),
	})
	if err != nil {
		t.Error(err)
	}
}

// figures are one pass's counts.
type figures struct{ chatter, asked, lost, commits, held, leaked int }

// friction clicks every page's button once; with late, the button's
// handler leaves its send in window.later, started once the step
// returned.
func friction(t *testing.T, pages []Page, late bool) figures {
	var f figures
	for _, p := range pages {
		t.Run(p.Name, func(t *testing.T) {
			html := p.HTML
			if late {
				html = lateSend(html)
			}
			srv := adversarial.NewServer(t, nil)
			srv.Handle("/", strings.ReplaceAll(html, "{{other}}", "http://localhost:"+srv.Port()))
			s, ctx := drivertest.Session(t, t.Name(), 60*time.Second)
			if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil {
				t.Fatal(err)
			}
			if p.Typed != "" {
				if _, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActFill, Target: "css=#email", Value: p.Typed, Submits: "allow"}); err != nil {
					t.Fatal(err)
				}
			}
			srv.Reset()
			out, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#b", Submits: "ask"})
			needs := errors.Is(err, calls.ErrNeedsApproval)
			if err != nil && !needs {
				t.Fatalf("click: %v", err)
			}
			if late && err == nil {
				if _, err := s.Eval(ctx, calls.EvalRequest{Expression: "setTimeout(window.later, 20), true", MainWorld: true}); err != nil {
					t.Fatal(err)
				}
			}
			got, stopped := false, false
			for range 100 { // a beacon may leave after the click returned
				if got = reached(srv, p.Path); got {
					break
				}
				if late && !needs {
					snap, err := s.Snapshot(ctx, calls.SnapshotRequest{Interactive: true})
					if err != nil {
						t.Fatal(err)
					}
					for _, n := range snap.Notices {
						stopped = stopped || n.Kind == calls.NoticeSendStopped
					}
					if stopped {
						break
					}
				}
				time.Sleep(20 * time.Millisecond)
			}
			if p.Commit {
				f.commits++
				switch {
				case got:
					f.leaked++
					t.Errorf("the commit reached the server without approval (%v)", err)
				case needs || stopped:
					f.held++
				default:
					t.Errorf("the commit neither asked nor reached the server, and no look said it was stopped: %+v", out)
				}
				return
			}
			f.chatter++
			switch {
			case needs:
				f.asked++
				t.Errorf("a plain click asked for approval: %v", err)
			case stopped:
				f.lost++
				t.Errorf("the page's %s was stopped after the step", p.Path)
			case !got:
				f.lost++
				t.Errorf("the page's %s never reached the server", p.Path)
			default:
				t.Logf("chatter: %v", out.Chatter)
			}
		})
	}
	return f
}

// lateSend rewrites a page's button so that its click leaves the send in
// window.later instead of sending.
func lateSend(html string) string {
	const open = `onclick="`
	i := strings.Index(html, open)
	if i < 0 {
		return html
	}
	i += len(open)
	j := strings.Index(html[i:], `"`)
	return html[:i] + "window.later=()=>{" + html[i:i+j] + "}" + html[i+j:]
}
