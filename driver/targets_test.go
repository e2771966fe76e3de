package driver_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
)

// pair is a page before and after a change, with the element to record on
// the first and what resolving it on the second must say.
type pair struct {
	name          string
	before, after string
	target        string   // CSS of the recorded element, in before
	right         string   // CSS of the right element, in after (found, moved)
	expect        []string // acceptable statuses
	row           int      // positional row, or -1
}

var pairMeta = regexp.MustCompile(`<!-- (\w+): (.*?) -->`)

func loadPairs(t *testing.T) []pair {
	t.Helper()
	files, err := filepath.Glob("testdata/pairs/*.html")
	if err != nil || len(files) == 0 {
		t.Fatalf("no pairs: %v", err)
	}
	var out []pair
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		p := pair{name: strings.TrimSuffix(filepath.Base(f), ".html"), row: -1}
		head, rest, _ := strings.Cut(s, "==== before\n")
		p.before, p.after, _ = strings.Cut(rest, "==== after\n")
		for _, m := range pairMeta.FindAllStringSubmatch(head, -1) {
			switch m[1] {
			case "expect":
				p.expect = strings.Split(m[2], "|")
			case "target":
				p.target = m[2]
			case "right":
				p.right = m[2]
			case "row":
				p.row, _ = strconv.Atoi(m[2])
			}
		}
		out = append(out, p)
	}
	return out
}

// TestResolutionCorpus records an element on each "before" page and
// resolves it on the "after" page. Counts: found right, refused right,
// wrong. The goal is zero wrong answers and at least 95% of cosmetic drift
// found with no model.
func TestResolutionCorpus(t *testing.T) {
	t.Parallel()
	pairs := loadPairs(t)
	var mu sync.Mutex
	counts := map[string]int{}
	// The pairs share four sessions, one pair at a time in each: a session
	// is a browser context and a renderer, most of a pair's cost in the
	// browser (31 pairs in sessions of their own took 31 s of CPU). Each
	// pair opens its own server's pages and records and resolves on them
	// alone, so what one pair left in a session (a page of another origin)
	// is gone with the next pair's navigation.
	// A pair's calls have a minute from when it starts, as in a session of
	// its own: the pairs wait their turn behind the package's other
	// parallel tests, so the sessions' own contexts bound only their start.
	pool := make(chan *driver.Session, 4)
	for i := range cap(pool) {
		s, _ := drivertest.Session(t, fmt.Sprintf("%s-%d", t.Name(), i), time.Minute)
		pool <- s
	}
	t.Run("pairs", func(t *testing.T) {
		for _, p := range pairs {
			t.Run(p.name, func(t *testing.T) {
				t.Parallel()
				s := <-pool
				defer func() { pool <- s }()
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				srv := serve(t, map[string]string{"/before": p.before, "/after": p.after})
				open(t, s, ctx, srv.URL+"/before")
				ev, err := s.Locate(ctx, calls.LocateRequest{Target: "css=" + p.target})
				if err != nil {
					t.Fatalf("locate %s: %v", p.target, err)
				}
				open(t, s, ctx, srv.URL+"/after")
				req := calls.FindRequest{Locator: ev.Chosen, Fingerprint: ev.Fingerprint}
				if p.row >= 0 {
					req.Positional, req.Row = true, p.row
				}
				r, err := s.Find(ctx, req)
				if err != nil {
					t.Fatalf("find: %v", err)
				}
				ok := false
				for _, e := range p.expect {
					ok = ok || r.Status == e
				}
				if ok && p.right != "" {
					want, err := s.Locate(ctx, calls.LocateRequest{Target: "css=" + p.right})
					if err != nil {
						t.Fatalf("locate the right element %s: %v", p.right, err)
					}
					if r.Ref == "" || r.Ref != want.Ref {
						ok = false
						t.Errorf("resolved to @%s, the right element is @%s", r.Ref, want.Ref)
					}
				}
				kind := strings.SplitN(p.name, "-", 2)[0]
				mu.Lock()
				switch {
				case !ok:
					counts["wrong"]++
				case r.Status == calls.Found || r.Status == calls.Moved:
					counts["found right"]++
				default:
					counts["refused right"]++
				}
				if ok && kind == "cosmetic" {
					counts["cosmetic found"]++
				}
				if kind == "cosmetic" {
					counts["cosmetic"]++
				}
				mu.Unlock()
				if !ok {
					t.Errorf("status %s (%s; score %.2f, matched %v, differs %v), want %v\nevidence: chosen %q fingerprint %+v",
						r.Status, r.Reason, r.Score, r.Matched, r.Differs, p.expect, ev.Chosen, ev.Fingerprint)
				}
			})
		}
	})
	t.Logf("resolution corpus: %d pairs: %d found right, %d refused right, %d wrong; cosmetic drift found %d of %d",
		len(pairs), counts["found right"], counts["refused right"], counts["wrong"], counts["cosmetic found"], counts["cosmetic"])
}

// TestLocateNeverChoosesALookAlike: a button inside a shadow root has a
// look-alike outside it with the same class. A document-wide CSS query
// matches only the outside one, so it must not be the evidence's choice
// for the inside one, and finding by that evidence must not land on the
// outside button.
func TestLocateNeverChoosesALookAlike(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": `<!doctype html><title>Shadow</title>
<button class=go>Go</button>
<div id=host></div>
<script>
const root = document.getElementById('host').attachShadow({mode: 'open'});
root.innerHTML = '<button class=go>Go</button>';
</script>`})
	open(t, s, ctx, srv.URL)
	text := snapshot(t, s, ctx, calls.SnapshotRequest{Full: true})
	var refs []string
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, `button "Go"`) {
			refs = append(refs, refOf(t, line, `button "Go"`))
		}
	}
	if len(refs) != 2 {
		t.Fatalf("want two Go buttons in:\n%s", text)
	}
	inner := refs[1]
	ev, err := s.Locate(ctx, calls.LocateRequest{Target: "@" + inner})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range ev.Candidates {
		if c.Kind == calls.KindCSS {
			t.Errorf("a CSS candidate that cannot reach a shadow-root element: %+v", c)
		}
	}
	if ev.Chosen != "" {
		res, err := s.Find(ctx, calls.FindRequest{Locator: ev.Chosen, Fingerprint: ev.Fingerprint})
		if err != nil {
			t.Fatal(err)
		}
		if res.Ref == refs[0] {
			t.Fatalf("finding the inner button by its evidence landed on the outer one: %+v (evidence %+v)", res, ev)
		}
	}
}
