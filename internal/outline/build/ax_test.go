package build

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/internal/outline"
)

// axNode is what the comparison reads of one node of Chromium's tree.
type axNode struct {
	role, name string
	ignored    bool
}

// fullAXTree returns Chromium's accessibility tree of every frame of the
// page in ctx, by backend node id.
func fullAXTree(ctx context.Context) (map[cdp.BackendNodeID]axNode, error) {
	return chromedp.Run(ctx, func(ctx context.Context, t *chromedp.Target) (map[cdp.BackendNodeID]axNode, error) {
		ft, err := cdp.Call(ctx, t, page.GetFrameTree, cdp.Empty{})
		if err != nil {
			return nil, err
		}
		var frames []cdp.FrameID
		var walk func(*page.FrameTree)
		walk = func(f *page.FrameTree) {
			frames = append(frames, f.Frame.ID)
			for _, c := range f.ChildFrames {
				walk(c)
			}
		}
		walk(ft.FrameTree)
		out := make(map[cdp.BackendNodeID]axNode)
		for _, f := range frames {
			res, err := cdp.Call(ctx, t, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{FrameID: f})
			if err != nil {
				continue // an out-of-process frame answers on its own target
			}
			for _, n := range res.Nodes {
				if n.BackendDOMNodeID == 0 {
					continue
				}
				out[n.BackendDOMNodeID] = axNode{role: axString(n.Role), name: axString(n.Name), ignored: n.Ignored}
			}
		}
		return out, nil
	})
}

func axString(v *accessibility.Value) string {
	if v == nil || len(v.Value) == 0 {
		return ""
	}
	var s string
	if err := jsonv2.Unmarshal(v.Value, &s); err != nil {
		return string(v.Value)
	}
	return s
}

// chromiumRoles maps the role names Chromium reports over CDP that differ
// from the ARIA names Outline uses.
var chromiumRoles = map[string]string{
	"image":                "img",
	"DisclosureTriangle":   "button",
	"MenuListOption":       "option",
	"ListBoxOption":        "option",
	"Iframe":               "iframe",
	"IframePresentational": "iframe",
	"LabelText":            "generic",
}

// agreement compares the role and name of every node with a ref in the
// outline of the page in ctx with Chromium's accessibility tree.
func agreement(t *testing.T, ctx context.Context) (agree, total int, diffs []string) {
	t.Helper()
	rec, err := capture(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ax, err := fullAXTree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	root, err := Outline(rec.Snapshot, Options{Ref: testRef, Viewport: rec.Viewport})
	if err != nil {
		t.Fatal(err)
	}
	root.Walk(func(n *outline.Node, _ int) bool {
		if n.Ref == "" {
			return true
		}
		total++
		a, ok := ax[cdp.BackendNodeID(n.BackendID)]
		role := a.role
		if r, ok := chromiumRoles[role]; ok {
			role = r
		}
		if role == "generic" && n.Role == "clickable" || role == "listitem" && n.Role == "clickable" {
			role = "clickable" // deliberate: no role, but made to be clicked
		}
		if role == "generic" && n.Role == "textbox" && n.Tag != "input" && n.Tag != "textarea" {
			role = "textbox" // deliberate: a contenteditable root is a textbox to an agent
		}
		switch {
		case !ok:
			diffs = append(diffs, fmt.Sprintf("%s %q <%s>: not in Chromium's tree", n.Role, n.Name, n.Tag))
		case a.ignored:
			diffs = append(diffs, fmt.Sprintf("%s %q <%s>: ignored by Chromium", n.Role, n.Name, n.Tag))
		case role != n.Role:
			diffs = append(diffs, fmt.Sprintf("%s %q <%s>: Chromium says %s %q", n.Role, n.Name, n.Tag, a.role, a.name))
		case n.Role != "clickable" && collapse(a.name) != n.Name:
			// A clickable generic has no name in Chromium; its name here is
			// its text, for the agent.
			diffs = append(diffs, fmt.Sprintf("%s %q <%s>: Chromium names it %q", n.Role, n.Name, n.Tag, a.name))
		default:
			agree++
		}
		return true
	})
	return agree, total, diffs
}

func TestAgreementPages(t *testing.T) {
	t.Parallel()
	ts := testServer(t)
	for _, name := range []string{"form", "content", "widgets", "frame"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := browsertest.Tab(t)
			if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/pages/"+name+".html")); err != nil {
				t.Fatal(err)
			}
			agree, total, diffs := agreement(t, ctx)
			pct := 100 * float64(agree) / float64(max(total, 1))
			t.Logf("%s: role+name agree on %d of %d elements with refs (%.1f%%)", name, agree, total, pct)
			for _, d := range diffs {
				t.Log("  ", d)
			}
			if pct < 97 {
				t.Errorf("%s: agreement %.1f%% < 97%%", name, pct)
			}
		})
	}
}

func TestAgreementCorpus(t *testing.T) {
	t.Parallel()
	pages, _ := filepath.Glob(filepath.Join(corpusDir, "*.html"))
	if len(pages) == 0 {
		t.Skip("no corpus in " + corpusDir)
	}
	ts := testServer(t)
	var mu sync.Mutex
	var agreeAll, totalAll int
	t.Run("pages", func(t *testing.T) {
		for _, p := range pages {
			name := strings.TrimSuffix(filepath.Base(p), ".html")
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				ctx := browsertest.Tab(t)
				if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/corpus/"+filepath.Base(p))); err != nil {
					t.Fatal(err)
				}
				agree, total, diffs := agreement(t, ctx)
				pct := 100 * float64(agree) / float64(max(total, 1))
				t.Logf("%s: role+name agree on %d of %d elements with refs (%.1f%%)", name, agree, total, pct)
				if testing.Verbose() || os.Getenv("WAYMARK_AX_DIFFS") != "" {
					slices.Sort(diffs)
					for _, d := range slices.Compact(diffs) {
						t.Log("  ", d)
					}
				}
				if total > 0 && pct < 80 {
					t.Errorf("%s: agreement %.1f%% < 80%%", name, pct)
				}
				mu.Lock()
				agreeAll += agree
				totalAll += total
				mu.Unlock()
			})
		}
	})
	pct := 100 * float64(agreeAll) / float64(max(totalAll, 1))
	t.Logf("corpus: role+name agree on %d of %d elements with refs (%.1f%%)", agreeAll, totalAll, pct)
	if pct < 90 {
		t.Errorf("corpus agreement %.1f%% < 90%%", pct)
	}
}
