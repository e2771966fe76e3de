package driver_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

func TestHistoryReadsAndEvalWorlds(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{
		"/one": `<!doctype html><title>One</title><a id=go href="/two" data-x="1">Two</a><script>window.pageSecret = 42</script>`,
		"/two": `<!doctype html><title>Two</title><ul><li>a</li><li>b</li><li>c</li></ul>`,
	})
	open(t, s, ctx, srv.URL+"/one")
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: "text=Two"})
	if info, _ := s.PageInfo(ctx); info.Title != "Two" {
		t.Fatalf("after the click: %+v", info)
	}
	n, err := s.Get(ctx, calls.GetRequest{What: "count", Target: "role=listitem"})
	if err != nil || n.Count != 3 {
		t.Errorf("count of list items: %+v %v", n, err)
	}
	back, err := s.Back(ctx)
	if err != nil || back.Title != "One" {
		t.Fatalf("back: %+v %v", back, err)
	}
	fwd, err := s.Forward(ctx)
	if err != nil || fwd.Title != "Two" {
		t.Fatalf("forward: %+v %v", fwd, err)
	}
	if _, err := s.Back(ctx); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Reload(ctx); err != nil || r.Title != "One" {
		t.Fatalf("reload: %+v %v", r, err)
	}
	// A same-document history entry (fragment) is gone back to as well.
	open(t, s, ctx, srv.URL+"/one#a")
	open(t, s, ctx, srv.URL+"/one#b")
	if back, err := s.Back(ctx); err != nil || !strings.HasSuffix(back.URL, "#a") {
		t.Fatalf("back within the document: %+v %v", back, err)
	}
	attr, err := s.Get(ctx, calls.GetRequest{What: "attr", Target: "css=#go", Name: "data-x"})
	if err != nil || !attr.Found || attr.Value != "1" {
		t.Errorf("attr: %+v %v", attr, err)
	}
	missing, err := s.Get(ctx, calls.GetRequest{What: "attr", Target: "css=#go", Name: "nope"})
	if err != nil || missing.Found {
		t.Errorf("a missing attribute: %+v %v", missing, err)
	}
	html, err := s.Get(ctx, calls.GetRequest{What: "html", Target: "css=#go"})
	if err != nil || !strings.HasPrefix(html.Value, `<a id="go"`) {
		t.Errorf("html: %+v %v", html, err)
	}
	// Our world does not see the page's globals; the page's own world does.
	if got := evalString(t, s, ctx, `typeof window.pageSecret`); got != "undefined" {
		t.Errorf("the isolated world sees the page's global: %s", got)
	}
	main, err := s.Eval(ctx, calls.EvalRequest{Expression: "window.pageSecret", MainWorld: true})
	if err != nil || string(main.Value) != "42" {
		t.Errorf("main world eval: %s %v", main.Value, err)
	}
	if _, err := s.Eval(ctx, calls.EvalRequest{Expression: "throw new Error('boom')"}); !errors.Is(err, calls.ErrJavaScript) || !strings.Contains(err.Error(), "boom") {
		t.Errorf("a throwing expression: %v", err)
	}
	if _, err := s.Viewport(ctx, calls.ViewportRequest{Width: 500, Height: 400}); err != nil {
		t.Fatal(err)
	}
	if got := evalString(t, s, ctx, `String(innerWidth)`); got != "500" {
		t.Errorf("innerWidth after viewport 500x400: %s", got)
	}
	if _, err := s.Viewport(ctx, calls.ViewportRequest{Width: 5, Height: 5}); !errors.Is(err, calls.ErrBadInput) {
		t.Errorf("a tiny viewport: %v", err)
	}
}
