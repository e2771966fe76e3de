package driver_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

const popupPage = `<!doctype html><title>Shop</title>
<h1>Shop</h1><button id=buy onclick="document.title='bought'">Show basket</button>
<button id=late onclick="setTimeout(() => document.body.insertAdjacentHTML('beforeend', document.getElementById('tpl').innerHTML), 0)">Later</button>
<template id=tpl><div id=modal style="position:fixed;left:25%;top:25%;width:50%;height:50%;background:#fff;border:1px solid">
<p>Sign up for our newsletter!</p><button>Subscribe</button><button>Close</button></div></template>
<template id=cookie><div style="position:fixed;left:0;right:0;bottom:0;height:120px;background:#eee">
<p>We use cookies to improve your experience.</p><button onclick="this.parentElement.remove(); document.title = 'accepted'">Accept all</button>
<button onclick="this.parentElement.remove(); document.title = 'rejected'">Reject all</button></div></template>`

func TestPopupsBetweenALookAndAnAction(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": popupPage})
	open(t, s, ctx, srv.URL)
	snapshot(t, s, ctx, calls.SnapshotRequest{})
	// A modal appears after the look: the next action is not done.
	evalString(t, s, ctx, `document.body.insertAdjacentHTML('beforeend', document.getElementById('tpl').innerHTML); 'ok'`)
	_, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#buy"})
	if !errors.Is(err, calls.ErrPopup) || !strings.Contains(err.Error(), "newsletter") || !strings.Contains(err.Error(), "Subscribe") {
		t.Fatalf("an action after a modal appeared: %v", err)
	}
	if info, _ := s.PageInfo(ctx); info.Title != "Shop" {
		t.Fatalf("the action happened under the popup: %q", info.Title)
	}
	// After a look that shows it, acting is the agent's choice again.
	evalString(t, s, ctx, `document.getElementById('modal').remove(); 'ok'`)
	snapshot(t, s, ctx, calls.SnapshotRequest{})
	// A cookie banner that appears is closed by its refusal, and said so.
	evalString(t, s, ctx, `document.body.insertAdjacentHTML('beforeend', document.getElementById('cookie').innerHTML); 'ok'`)
	out := act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#buy"})
	if !strings.Contains(out.Closed, "Reject all") {
		t.Fatalf("the cookie banner was not closed by its refusal: %+v", out)
	}
	if info, _ := s.PageInfo(ctx); info.Title != "bought" {
		t.Fatalf("after closing the banner the click did not happen: %q", info.Title)
	}
}

// A cookie banner there when the page loads is answered by its refusal
// before the first action on the page, and said in the outcome; an action
// on the banner's own button is left to do what it says.
func TestCookieBannerAtLoad(t *testing.T) {
	t.Parallel()
	const page = `<!doctype html><title>Shop</title>
<h1>Shop</h1><button id=buy onclick="document.title += ' bought'">Show basket</button>
<div id=cookies style="position:fixed;left:0;right:0;bottom:0;height:50%;background:#eee">
<p>We use cookies to improve your experience.</p><button id=accept onclick="this.parentElement.remove(); document.title = 'accepted'">Accept all</button>
<button onclick="this.parentElement.remove(); document.title = 'rejected'">Reject all</button></div>`
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": page})

	// With a look first, and with none.
	for _, look := range []bool{true, false} {
		open(t, s, ctx, srv.URL)
		if look {
			snapshot(t, s, ctx, calls.SnapshotRequest{})
		}
		out := act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#buy"})
		if !strings.Contains(out.Closed, `"Reject all"`) {
			t.Fatalf("look %v: the banner at load was not answered by its refusal: %+v", look, out)
		}
		if info, _ := s.PageInfo(ctx); info.Title != "rejected bought" {
			t.Fatalf("look %v: title %q, want the refusal and then the click", look, info.Title)
		}
	}

	// The action is on the banner's own button: it is done, not refused.
	open(t, s, ctx, srv.URL)
	text := snapshot(t, s, ctx, calls.SnapshotRequest{Interactive: true})
	out := act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: "@" + refOf(t, text, `"Accept all"`)})
	if info, _ := s.PageInfo(ctx); info.Title != "accepted" || out.Closed != "" {
		t.Fatalf("clicking the banner's own Accept all: title %q, closed %q", info.Title, out.Closed)
	}
}
