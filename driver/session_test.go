package driver_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
)

func TestSessionsAreIsolated(t *testing.T) {
	t.Parallel()
	a, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": `<!doctype html><title>C</title><p>cookies</p>`})
	open(t, a, ctx, srv.URL)
	if _, err := a.Cookies(ctx, calls.CookieRequest{Op: "set", Cookies: []calls.Cookie{{Name: "who", Value: "a"}}}); err != nil {
		t.Fatal(err)
	}
	b, _ := drivertest.Session(t, t.Name()+"-other", time.Minute)
	open(t, b, ctx, srv.URL)
	got, err := b.Cookies(ctx, calls.CookieRequest{Op: "get"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range got.Cookies {
		if c.Name == "who" {
			t.Fatalf("the other session sees the cookie %v", c)
		}
	}
	mine, _ := a.Cookies(ctx, calls.CookieRequest{Op: "get"})
	if len(mine.Cookies) != 1 || mine.Cookies[0].Value != "a" {
		t.Fatalf("the first session's cookies: %+v", mine.Cookies)
	}
}

func TestStorageAndState(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": `<!doctype html><title>S</title><p>storage</p>`})
	open(t, s, ctx, srv.URL)
	if _, err := s.Storage(ctx, calls.StorageRequest{Area: "local", Op: "set", Key: "k", Value: "v"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Cookies(ctx, calls.CookieRequest{Op: "set", Cookies: []calls.Cookie{{Name: "sid", Value: "42"}}}); err != nil {
		t.Fatal(err)
	}
	st, err := s.StateSave(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Cookies) != 1 || len(st.Origins) != 1 {
		t.Fatalf("saved state: %+v", st)
	}
	other, _ := drivertest.Session(t, t.Name()+"-load", time.Minute)
	open(t, other, ctx, srv.URL)
	if _, err := other.StateLoad(ctx, *st); err != nil {
		t.Fatal(err)
	}
	items, err := other.Storage(ctx, calls.StorageRequest{Area: "local", Op: "get", Key: "k"})
	if err != nil || items.Items["k"] != "v" {
		t.Fatalf("loaded storage %v, %v", items, err)
	}
	cl, _ := other.Cookies(ctx, calls.CookieRequest{})
	if len(cl.Cookies) != 1 || cl.Cookies[0].Value != "42" {
		t.Fatalf("loaded cookies %+v", cl.Cookies)
	}
	if _, err := other.StateLoad(ctx, calls.State{Format: "other/9"}); err == nil {
		t.Fatal("a state of another format loaded")
	}
}

func TestDialogsAreReported(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": `<!doctype html><title>D</title>
<button onclick="document.getElementById('r').textContent = 'answer: ' + prompt('Your name?', 'x')">Ask</button><p id=r></p>`})
	open(t, s, ctx, srv.URL)
	out := act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: "text=Ask"})
	if out.Dialog == nil || out.Dialog.Type != "prompt" || out.Dialog.Message != "Your name?" {
		t.Fatalf("outcome dialog %+v", out.Dialog)
	}
	snap := snapshot(t, s, ctx, calls.SnapshotRequest{})
	if !strings.Contains(snap, "[dialog] prompt") {
		t.Errorf("the outline does not say a dialog is open:\n%s", snap)
	}
	if _, err := s.Dialog(ctx, calls.DialogRequest{Accept: true, Text: "Ann"}); err != nil {
		t.Fatal(err)
	}
	if got := getText(t, s, ctx, "css=#r"); got != "answer: Ann" {
		t.Errorf("after accepting: %q", got)
	}
	if _, err := s.Dialog(ctx, calls.DialogRequest{}); err == nil {
		t.Error("answering with no dialog open succeeded")
	}
}

func TestNewTabsAndTabCommands(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{
		"/":       `<!doctype html><title>Main</title><a href="/second" target="_blank">Elsewhere</a>`,
		"/second": `<!doctype html><title>Second</title><p>second</p>`,
	})
	open(t, s, ctx, srv.URL)
	out := act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: "text=Elsewhere"})
	// The tab the click opened becomes current.
	if out.Title != "Second" || !strings.HasSuffix(out.URL, "/second") {
		t.Fatalf("after a click that opens a tab, the outcome is %+v", out)
	}
	if info, _ := s.PageInfo(ctx); info.Title != "Second" {
		t.Fatalf("the opened tab is not current: %+v", info)
	}
	list, err := s.Tab(ctx, calls.TabRequest{Op: "switch", Index: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !list.Tabs[1].Current {
		t.Fatalf("switch did not make the tab current: %+v", list.Tabs)
	}
	if info, _ := s.PageInfo(ctx); info.Title != "Second" {
		t.Errorf("current page after switch: %+v", info)
	}
	list, err = s.Tab(ctx, calls.TabRequest{Op: "close", Index: -1})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tabs) != 1 || list.Tabs[0].Title != "Main" {
		t.Fatalf("after closing: %+v", list.Tabs)
	}
}

func TestScreenshotPDFAndWaits(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(300 * time.Millisecond)
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Write([]byte("done"))
	}))
	t.Cleanup(slow.Close)
	srv := serve(t, map[string]string{"/": `<!doctype html><title>Shots</title><h1 id=h>Hello</h1>
<button onclick="fetch('` + slow.URL + `').then(r => r.text()).then(t => document.getElementById('h').textContent = t)">Load</button>`})
	open(t, s, ctx, srv.URL)
	for _, req := range []calls.ScreenshotRequest{{}, {Full: true}, {Target: "css=#h"}} {
		img, err := s.Screenshot(ctx, req)
		if err != nil {
			t.Fatalf("screenshot %+v: %v", req, err)
		}
		if !bytes.HasPrefix(img.Data, []byte("\x89PNG")) {
			t.Errorf("screenshot %+v is not a PNG", req)
		}
	}
	pdf, err := s.PDF(ctx)
	if err != nil || !bytes.HasPrefix(pdf.Data, []byte("%PDF")) {
		t.Errorf("pdf: %v", err)
	}
	// The click waits for the fetch it started, so the text is there at once.
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: "text=Load"})
	if got := getText(t, s, ctx, "css=#h"); got != "done" {
		t.Errorf("after the click the heading says %q; the fetch was not waited for", got)
	}
	if _, err := s.Wait(ctx, calls.WaitRequest{Text: "done"}); err != nil {
		t.Error(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := s.Wait(wctx, calls.WaitRequest{Text: "never", TimeoutMS: 200}); err == nil || !strings.Contains(err.Error(), "never") {
		t.Errorf("a wait that times out: %v", err)
	}
	// URL globs are the one dialect (calls.MatchURL): the whole URL, or a
	// path.
	for _, glob := range []string{srv.URL + "/*", "/", "*/"} {
		if _, err := s.Wait(wctx, calls.WaitRequest{URL: glob, TimeoutMS: 2000}); err != nil {
			t.Errorf("wait for the URL %s: %v", glob, err)
		}
	}
	if _, err := s.Wait(wctx, calls.WaitRequest{URL: "/elsewhere", TimeoutMS: 200}); err == nil {
		t.Error("a wait for another path held")
	}
}
