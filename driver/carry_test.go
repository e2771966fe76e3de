package driver_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// A site repeats its banner and footer on every page: a look with --changes
// of the page a click led to writes them as one line each, and their links
// keep the refs the agent read on the page before, now on the new page.
func TestANewPageCarriesTheRegionsThatReadAsBefore(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	const banner = `<header><a href="/">Shop</a><nav aria-label="Main"><a href="/a">Page A</a> <a href="/b">Page B</a></nav></header>`
	const footer = `<footer><a href="/help">Help</a></footer>`
	srv := serve(t, map[string]string{
		"/a": `<!doctype html><title>A</title>` + banner + `<main><h1>A</h1><button>Only on A</button></main>` + footer,
		"/b": `<!doctype html><title>B</title>` + banner + `<main><h1>B</h1><input aria-label="Only on B"></main><footer><a href="/help">Help</a> <a href="/more">More</a></footer>`,
	})
	open(t, s, ctx, srv.URL+"/a")
	req := calls.SnapshotRequest{Interactive: true, Changes: true}
	first := snapshot(t, s, ctx, req)
	pageB, help := refOf(t, first, `link "Page B"`), refOf(t, first, `link "Help"`)
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: pageB})

	second, err := s.Snapshot(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if second.Changed || !strings.HasPrefix(second.Text, "[page] "+srv.URL+"/b \"B\"\n") || !strings.Contains(second.Text, "- banner: (unchanged)\n") ||
		strings.Contains(second.Text, `"Page A"`) || !strings.Contains(second.Text, `textbox "Only on B"`) {
		t.Fatalf("the look of the new page does not fold its banner:\n%s", second.Text)
	}
	// The footer gained a link: written whole, with refs of its own.
	if strings.Contains(second.Text, "contentinfo: (unchanged)") || !strings.Contains(second.Text, `link "More"`) ||
		refOf(t, second.Text, `link "Help"`) == help {
		t.Fatalf("a region that changed is not written whole with new refs:\n%s", second.Text)
	}
	if second.Refs != strings.Count(first, "[ref=")-1+2 { // banner's 3 again, "Only on A" gone, "Only on B" and the footer's 2
		t.Errorf("refs %d in:\n%s", second.Refs, second.Text)
	}

	// The banner's refs name the new page's links: the same ref goes on
	// to the page it says.
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: refOf(t, first, `link "Page A"`)})
	if got := evalString(t, s, ctx, "location.pathname"); got != "/a" {
		t.Fatalf("the banner's ref from the first look led to %q", got)
	}
	// Back on A: the banner again, still under its first refs; the main
	// region changed and is written whole.
	third := snapshot(t, s, ctx, req)
	if !strings.Contains(third, "- banner: (unchanged)\n") || !strings.Contains(third, `button "Only on A"`) {
		t.Fatalf("the look back on A:\n%s", third)
	}
	// A look of the same page says only what changed, under the carried refs.
	evalString(t, s, ctx, `document.querySelector('nav a[href="/b"]').textContent = 'Page B (new)'`)
	fourth := snapshot(t, s, ctx, req)
	if want := `~ link "Page B (new)" [ref=` + pageB + `]`; !strings.Contains(fourth, want) {
		t.Fatalf("the changed banner link is not said under its ref %s:\n%s", pageB, fourth)
	}
	// A ref of a region written whole on the page before is gone with it.
	if _, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: refOf(t, second.Text, `textbox "Only on B"`)}); !errors.Is(err, calls.ErrStaleRef) {
		t.Errorf("a ref of the page before: %v, want stale", err)
	}
}

// A look with other options between the last -i look and the new page's
// showed the agent other refs for the banner last: the new page is written
// whole, with refs of its own, rather than carry refs the agent read
// before that.
func TestANewPageCarriesNothingAfterALookWithOtherOptions(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	const banner = `<header><a href="/">Shop</a> <a href="/b">Page B</a></header>`
	srv := serve(t, map[string]string{
		"/a": `<!doctype html><title>A</title>` + banner + `<main><h1>A</h1></main>`,
		"/b": `<!doctype html><title>B</title>` + banner + `<main><h1>B</h1></main>`,
	})
	open(t, s, ctx, srv.URL+"/a")
	req := calls.SnapshotRequest{Interactive: true, Changes: true}
	first := snapshot(t, s, ctx, req)
	snapshot(t, s, ctx, calls.SnapshotRequest{Full: true})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: refOf(t, first, `link "Page B"`)})
	second := snapshot(t, s, ctx, req)
	if strings.Contains(second, "(unchanged)") || refOf(t, second, `link "Page B"`) == refOf(t, first, `link "Page B"`) {
		t.Fatalf("a banner carried past a look with other options:\n%s", second)
	}
}

// A look nobody reads (a recorder's or a replay's own check) is not what
// the next look's changes are counted from.
func TestAnUnseenLookIsNotTheLastLook(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": `<!doctype html><title>A</title><button id=b>Count 0</button>`})
	open(t, s, ctx, srv.URL)
	req := calls.SnapshotRequest{Interactive: true, Changes: true}
	snapshot(t, s, ctx, req)
	evalString(t, s, ctx, `document.getElementById('b').textContent = 'Count 1'`)
	if _, err := s.Snapshot(ctx, calls.SnapshotRequest{Interactive: true, Unseen: true}); err != nil {
		t.Fatal(err)
	}
	if got := snapshot(t, s, ctx, req); !strings.Contains(got, `~ button "Count 1"`) {
		t.Fatalf("the change since the last look read is not said:\n%s", got)
	}
}

// An open starts a new reading of the tab (a new task, maybe another
// agent): the look after it is whole, neither changes nor "(unchanged)".
func TestTheLookAfterAnOpenIsWhole(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	const banner = `<header><a href="/">Shop</a> <a href="/b">Page B</a></header>`
	srv := serve(t, map[string]string{
		"/a": `<!doctype html><title>A</title>` + banner + `<main><h1>A</h1></main>`,
		"/b": `<!doctype html><title>B</title>` + banner + `<main><h1>B</h1></main>`,
	})
	req := calls.SnapshotRequest{Interactive: true, Changes: true}
	open(t, s, ctx, srv.URL+"/a")
	snapshot(t, s, ctx, req)
	open(t, s, ctx, srv.URL+"/b")
	if got := snapshot(t, s, ctx, req); strings.Contains(got, "(unchanged)") || !strings.HasPrefix(got, "[page] "+srv.URL+"/b \"B\"\n") {
		t.Fatalf("the look after opening another page:\n%s", got)
	}
	open(t, s, ctx, srv.URL+"/b")
	if got := snapshot(t, s, ctx, req); strings.Contains(got, "changes") || !strings.Contains(got, `link "Page B"`) {
		t.Fatalf("the look after opening the same page again:\n%s", got)
	}
}
