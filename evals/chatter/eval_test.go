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
// approval (must be 0). CHATTER_SEED, CHATTER_PAGES and CHATTER_COMMITS
// choose the corpus.
func TestFriction(t *testing.T) {
	seed := uint64(evaltest.Int("CHATTER_SEED", 27))
	pages := Generate(seed, evaltest.Int("CHATTER_PAGES", 24), evaltest.Int("CHATTER_COMMITS", 12))
	var chatter, asked, lost, commits, leaked, held int
	for _, p := range pages {
		t.Run(p.Name, func(t *testing.T) {
			srv := adversarial.NewServer(t, nil)
			srv.Handle("/", strings.ReplaceAll(p.HTML, "{{other}}", "http://localhost:"+srv.Port()))
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
			got := false
			for range 100 { // a beacon may leave after the click returned
				if got = reached(srv, p.Path); got {
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
			if p.Commit {
				commits++
				switch {
				case got:
					leaked++
					t.Errorf("the commit reached the server without approval (%v)", err)
				case needs:
					held++
				default:
					t.Errorf("the commit neither asked nor reached the server: %+v", out)
				}
				return
			}
			chatter++
			if needs {
				asked++
				t.Errorf("a plain click asked for approval: %v", err)
				return
			}
			if !got {
				lost++
				t.Errorf("the page's %s never reached the server", p.Path)
			}
			t.Logf("chatter: %v", out.Chatter)
		})
	}
	t.Logf("seed %d: %d chatter pages, %d asked for approval, %d sends lost; %d commit pages, %d held, %d reached the server without approval",
		seed, chatter, asked, lost, commits, held, leaked)
	err := report.Write(report.Dir, report.Section{
		Name: "chatter",
		Figures: map[string]any{"seed": seed, "chatter_pages": chatter, "asked": asked, "lost": lost,
			"commit_pages": commits, "held": held, "leaked": leaked},
		Markdown: fmt.Sprintf("The submit gate on %d pages that only chatter and %d that commit (seed %d).\n\n"+
			"| chatter pages | asked for approval | sends lost | commit pages | held | reached the server unapproved |\n"+
			"|---|---|---|---|---|---|\n| %d | %d | %d | %d | %d | %d |",
			chatter, commits, seed, chatter, asked, lost, commits, held, leaked),
	})
	if err != nil {
		t.Error(err)
	}
}
