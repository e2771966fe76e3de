package targets

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/domsnapshot"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/locator"
	"github.com/waymark-dev/waymark/internal/outline"
	"github.com/waymark-dev/waymark/internal/outline/build"
)

func TestStable(t *testing.T) {
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"checkout", true}, {"btn-primary", true}, {"search-box", true}, {"nav__item", true}, {"save", true},
		{"css-1x2y3z", false}, {"sc-bdVaJa", false}, {"jsx-3456789", false}, {"Button_primary__a1B2c", false},
		{"item-123456", false}, {"a1b2c3", false}, {"e1abc2d0", false}, {":r1:", false}, {"", false},
		{"x9k3p", false}, {"col-md-6", true}, {"h1", true},
	} {
		if got := Stable(c.s); got != c.want {
			t.Errorf("Stable(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}

func TestCompare(t *testing.T) {
	save := calls.Fingerprint{Tag: "button", Role: "button", Name: "save", Ancestors: []string{"form \"editor\""}}
	for _, c := range []struct {
		name     string
		cur      calls.Fingerprint
		conflict bool
		min      float64
	}{
		{"same", save, false, 0.99},
		{"other name", calls.Fingerprint{Tag: "button", Role: "button", Name: "delete", Ancestors: save.Ancestors}, true, 0},
		{"link now", calls.Fingerprint{Tag: "a", Role: "link", Name: "save", Ancestors: save.Ancestors}, true, 0},
		{"moved", calls.Fingerprint{Tag: "button", Role: "button", Name: "save", Ancestors: []string{"dialog"}}, false, 0.6},
		{"longer name", calls.Fingerprint{Tag: "button", Role: "button", Name: "save draft", Ancestors: save.Ancestors}, false, 0.6},
	} {
		got := Compare(save, c.cur)
		if (got.Conflict != "") != c.conflict || got.Score < c.min {
			t.Errorf("%s: %+v", c.name, got)
		}
	}
	// A test id that agrees vouches for a translated name; one that differs
	// is another control.
	a := calls.Fingerprint{Role: "button", Name: "checkout", TestID: "checkout"}
	if c := Compare(a, calls.Fingerprint{Role: "button", Name: "zur kasse", TestID: "checkout"}); c.Conflict != "" {
		t.Errorf("translated with the same test id: %+v", c)
	}
	if c := Compare(a, calls.Fingerprint{Role: "button", Name: "checkout", TestID: "pay"}); c.Conflict == "" {
		t.Errorf("another test id: %+v", c)
	}
	// A fingerprint written by hand (routine/FORMAT.md's example, a
	// program's own routine) names the control as the page writes it;
	// names compare with case and spaces folded, as locators do.
	email := calls.Fingerprint{Tag: "input", Role: "textbox", Name: "Email", Label: "Email "}
	if c := Compare(email, calls.Fingerprint{Tag: "input", Role: "textbox", Name: "email", Label: "email"}); c.Conflict != "" || c.Score < 0.99 {
		t.Errorf("a name written as the page shows it: %+v", c)
	}
	// A routine recorded when clickable elements were "generic" still
	// finds them.
	if c := Compare(calls.Fingerprint{Role: "generic", Name: "more"}, calls.Fingerprint{Role: "clickable", Name: "more"}); c.Conflict != "" || c.Score < 0.9 {
		t.Errorf("generic then, clickable now: %+v", c)
	}
	// An inferred name is evidence, not identity: it raises the score of
	// the field beside the same text, and another one is no conflict.
	user := calls.Fingerprint{Tag: "input", Role: "textbox", Inferred: "username"}
	same := Compare(user, calls.Fingerprint{Tag: "input", Role: "textbox", Inferred: "username"})
	other := Compare(user, calls.Fingerprint{Tag: "input", Role: "textbox", Inferred: "password"})
	if same.Score <= other.Score || other.Conflict != "" || same.Conflict != "" {
		t.Errorf("inferred names: same %+v, other %+v", same, other)
	}
}

// bigTree builds the outline of the recorded 3,000-element page.
func bigTree(tb testing.TB) *outline.Node {
	tb.Helper()
	f, err := os.Open("../outline/build/testdata/big.json.gz")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		tb.Fatal(err)
	}
	var rec struct {
		Snapshot *domsnapshot.CaptureSnapshotResult `json:"snapshot"`
	}
	if err := jsonv2.Unmarshal(b, &rec); err != nil {
		tb.Fatal(err)
	}
	root, err := build.Outline(rec.Snapshot, build.Options{Ref: func(_ cdp.FrameID, id cdp.BackendNodeID) string { return fmt.Sprintf("e%d", id) }})
	if err != nil {
		tb.Fatal(err)
	}
	return root
}

// lastButton is the last button of the page: the worst case for walks.
func lastButton(root *outline.Node) *outline.Node {
	var last *outline.Node
	root.Walk(func(n *outline.Node, _ int) bool {
		if n.Role == "button" {
			last = n
		}
		return true
	})
	return last
}

func TestLocateAndResolveOnBigPage(t *testing.T) {
	root := bigTree(t)
	n := lastButton(root)
	ev := Locate(root, n, nil)
	if ev.Chosen == "" {
		t.Fatalf("no unique locator for %s %q: %+v", n.Role, n.Name, ev.Candidates)
	}
	loc, err := locator.Parse(ev.Chosen)
	if err != nil {
		t.Fatal(err)
	}
	r := Resolve(root, Match(root, loc), ev.Fingerprint, -1)
	if r.Status != calls.Found || r.Node != n {
		t.Fatalf("resolve on the same page: %s %s", r.Status, r.Reason)
	}
	// Without its locator, the fingerprint alone finds it among 500 buttons.
	r = Resolve(root, nil, ev.Fingerprint, -1)
	if r.Node != n || (r.Status != calls.Moved && r.Status != calls.Found) {
		t.Fatalf("resolve by fingerprint: %s %s (%v)", r.Status, r.Reason, r.Node)
	}
}

func BenchmarkLocate(b *testing.B) {
	root := bigTree(b)
	n := lastButton(root)
	b.ResetTimer()
	for b.Loop() {
		Locate(root, n, nil)
	}
}

func BenchmarkResolveByFingerprint(b *testing.B) {
	root := bigTree(b)
	fp := Fingerprint(root, lastButton(root))
	b.ResetTimer()
	for b.Loop() {
		Resolve(root, nil, fp, -1)
	}
}
