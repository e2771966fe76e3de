package replay

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/demo"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/secret"
)

// TestMain runs four of the parallel tests at once (browsertest.Parallel):
// the browser tests, each in a session of its own in the package's one
// browser, mostly wait on their pages. It closes that browser after.
func TestMain(m *testing.M) {
	browsertest.Parallel(4)
	code := m.Run()
	drivertest.CloseDriver()
	os.Exit(code)
}

// newSession gives the test its own session in the package's one browser.
func newSession(t testing.TB, name string) (*driver.Session, context.Context) {
	t.Helper()
	return drivertest.Session(t, name, 90*time.Second)
}

// recorder builds a routine by hand the way the recorder does: each
// element's locator, evidence and fingerprint come from the live page.
type recorder struct {
	t   testing.TB
	s   *driver.Session
	ctx context.Context
	r   *routine.Routine
}

func (rec *recorder) gotoStep(id, url string) {
	rec.t.Helper()
	info, err := rec.s.Open(rec.ctx, calls.OpenRequest{URL: url})
	if err != nil {
		rec.t.Fatal(err)
	}
	rec.r.Steps = append(rec.r.Steps, routine.Step{ID: id, Kind: routine.KindGoto, URL: url, Landed: routine.LandedAt(url, info, nil)})
}

// target locates the element on the outline line holding all words.
func (rec *recorder) target(words ...string) *routine.Target {
	rec.t.Helper()
	snap, err := rec.s.Snapshot(rec.ctx, calls.SnapshotRequest{Interactive: true, Full: true})
	if err != nil {
		rec.t.Fatal(err)
	}
	ref := refOf(rec.t, snap.Text, words...)
	ev, err := rec.s.Locate(rec.ctx, calls.LocateRequest{Target: "@" + ref})
	if err != nil {
		rec.t.Fatal(err)
	}
	return routine.TargetOf(ev)
}

// act records an element step and does it, so the next steps are
// recorded on the page as it then is.
func (rec *recorder) act(id, op string, v *routine.Value, actual string, words ...string) {
	rec.t.Helper()
	tg := rec.target(words...)
	req := calls.ActRequest{Kind: op, Target: tg.Locator}
	switch op {
	case calls.ActFill:
		req.Value = actual
	case calls.ActSelect:
		req.Values = []string{actual}
	}
	if _, err := rec.s.Act(rec.ctx, req); err != nil {
		rec.t.Fatalf("record %s: %v", id, err)
	}
	rec.r.Steps = append(rec.r.Steps, routine.Step{ID: id, Kind: routine.KindAct, Op: op, Instruction: fmt.Sprintf("%s %s", op, strings.Join(words, " ")), Target: tg, Value: v})
}

func refOf(t testing.TB, outline string, words ...string) string {
	t.Helper()
	for _, line := range strings.Split(outline, "\n") {
		all := true
		for _, w := range words {
			all = all && strings.Contains(line, w)
		}
		if i := strings.Index(line, "[ref="); all && i >= 0 {
			rest := line[i+5:]
			return rest[:strings.IndexByte(rest, ']')]
		}
	}
	t.Fatalf("no line with a ref holds %q in:\n%s", words, outline)
	return ""
}

// TestReplayDemoCheckout records the demo shop's checkout and replays it
// in a fresh session: the order is placed, with no model call.
func TestReplayDemoCheckout(t *testing.T) {
	t.Parallel()
	site := demo.New(nil)
	srv := httptest.NewServer(site)
	t.Cleanup(srv.Close)
	s, ctx := newSession(t, "demo-record")
	rec := &recorder{t: t, s: s, ctx: ctx, r: &routine.Routine{Format: routine.Format, Name: "demo checkout", Version: 1,
		Variables: []routine.Variable{{Name: "email"}, {Name: "password", Secret: true}}}}
	rec.gotoStep("open", srv.URL+"/checkout")
	rec.act("name", calls.ActFill, &routine.Value{Literal: "Ann Example"}, "Ann Example", "textbox", "Full name")
	rec.act("email", calls.ActFill, &routine.Value{From: "input", Slot: "email"}, "ann@example.com", "textbox", "Email")
	rec.act("password", calls.ActFill, &routine.Value{From: "secret", Slot: "password"}, "s3cret-pass", "textbox", "Account password")
	rec.act("country", calls.ActSelect, &routine.Value{Literal: "United Kingdom"}, "United Kingdom", "combobox", "Country")
	rec.act("shipping", calls.ActCheck, nil, "", "radio", "Standard")
	rec.act("terms", calls.ActCheck, nil, "", "checkbox", "terms")
	rec.act("place", calls.ActClick, nil, "", "button", "Place order")
	rec.r.Steps = append(rec.r.Steps, routine.Step{ID: "thanks", Kind: routine.KindVerify, Check: &routine.Check{Text: "Thank you", URL: "/orders/*"}})
	first, ok := site.LastOrder()
	if !ok {
		t.Fatal("recording placed no order")
	}
	path := t.TempDir() + "/checkout.json"
	if err := routine.Save(path, rec.r, nil); err != nil {
		t.Fatal(err)
	}
	r, err := routine.Load(path)
	if err != nil {
		t.Fatal(err)
	}

	s2, ctx2 := newSession(t, "demo-replay")
	m := &outlineModel{}
	// NoHand: with a person's pace the fills type key by key and the
	// test takes about 15 s instead of 2; the hand has its own tests.
	res, err := Run(ctx2, s2, r, Options{Model: m, Vars: map[string]string{"email": "bo@example.com"}, Submits: SubmitsAllow, NoHand: true,
		Secrets: map[string]secret.Value{"password": secret.New("password", "an0ther-pass")}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != StatusOK || res.ModelCalls != 0 || m.n.Load() != 0 {
		t.Fatalf("replay = %s %s %q, %d model calls; steps %+v", res.Status, res.Cause, res.Message, res.ModelCalls, res.Steps)
	}
	o, _ := site.LastOrder()
	if o.Number == first.Number || o.Email != "bo@example.com" || o.Password != "an0ther-pass" || o.Country != "GB" || o.Shipping != "standard" || !o.Terms {
		t.Errorf("order = %+v", o)
	}
}

// outlineModel answers a heal with the ref of the outline line holding
// Want, and counts its calls.
type outlineModel struct {
	Want string
	n    atomic.Int64
	last atomic.Value // the last turn's message
}

func (m *outlineModel) Next(ctx context.Context, turn pilot.Turn) (pilot.Reply, error) {
	m.n.Add(1)
	m.last.Store(turn.Messages[0].Text)
	if turn.Purpose != pilot.PurposeHeal {
		return pilot.Reply{}, fmt.Errorf("unexpected purpose %s", turn.Purpose)
	}
	for _, line := range strings.Split(turn.Messages[0].Text, "\n") {
		if i := strings.Index(line, "[ref="); i >= 0 && strings.Contains(line, m.Want) {
			rest := line[i+5:]
			return pilot.Reply{Data: []byte(fmt.Sprintf(`{"action":"click","ref":%q}`, rest[:strings.IndexByte(rest, ']')]))}, nil
		}
	}
	return pilot.Reply{Data: []byte(`{"action":"click","ref":"e0"}`)}, nil
}

// shopVariants serves a small checkout whose page the test swaps.
type shopVariants struct {
	mu      sync.Mutex
	variant string
	orders  int
}

const formHead = `<!doctype html><html><head><title>Checkout</title></head><body><h1>Checkout</h1>`

var variants = map[string]string{
	"base": formHead + `<form method="post" action="/done"><div class="f-1a2b"><label for="name">Full name</label><input id="name" name="name"></div>
<div class="f-3c4d"><label for="email">Email</label><input id="email" name="email" type="email"></div>
<button type="submit" class="btn-x9">Place order</button></form></body></html>`,
	// Classes and ids renamed, a wrapper added.
	"cosmetic": formHead + `<main><form method="post" action="/done"><section class="q-77"><div class="zz-91"><label for="n2">Full name</label><input id="n2" name="name"></div>
<div class="zz-92"><label for="e2">Email</label><input id="e2" name="email" type="email"></div></section>
<button type="submit" class="primary-b41" id="go">Place order</button></form></main></body></html>`,
	// The button renamed and moved below a note.
	"renamed": formHead + `<form id="f" method="post" action="/done"><div><label for="name">Full name</label><input id="name" name="name"></div>
<div><label for="email">Email</label><input id="email" name="email" type="email"></div></form>
<aside aria-label="Summary"><h2>Your order</h2><ul><li>1 × Trail Mug</li></ul>
<nav aria-label="Steps"><button type="button" onclick="history.back()">Back to cart</button>
<button type="submit" form="f">Complete purchase</button></nav></aside></body></html>`,
	// The button renamed where it stood.
	"renamed-in-place": formHead + `<form method="post" action="/done"><div class="f-1a2b"><label for="name">Full name</label><input id="name" name="name"></div>
<div class="f-3c4d"><label for="email">Email</label><input id="email" name="email" type="email"></div>
<button type="submit" class="btn-x9">Complete purchase</button></form></body></html>`,
	// A different control where the button was.
	"substituted": formHead + `<form method="post" action="/done"><div class="f-1a2b"><label for="name">Full name</label><input id="name" name="name"></div>
<div class="f-3c4d"><label for="email">Email</label><input id="email" name="email" type="email"></div>
<button type="submit" class="btn-x9" formaction="/delete">Delete account</button></form></body></html>`,
	"login": `<!doctype html><html><head><title>Sign in</title></head><body><h1>Sign in</h1><form method="post" action="/login">
<label for="u">Email</label><input id="u" name="u"><label for="p">Password</label><input id="p" name="p" type="password"><button>Sign in</button></form></body></html>`,
}

func (v *shopVariants) set(name string) {
	v.mu.Lock()
	v.variant = name
	v.mu.Unlock()
}

func (v *shopVariants) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	v.mu.Lock()
	variant := v.variant
	v.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	switch {
	case r.URL.Path == "/checkout" && variant == "signin":
		http.Redirect(w, r, "/login", http.StatusFound)
	case r.URL.Path == "/checkout" && variant == "moved-away":
		http.Redirect(w, r, "/maintenance", http.StatusFound)
	case r.URL.Path == "/checkout" && (variant == "declined"):
		io.WriteString(w, variants["base"])
	case r.URL.Path == "/checkout":
		io.WriteString(w, variants[variant])
	case r.URL.Path == "/login":
		io.WriteString(w, variants["login"])
	case r.URL.Path == "/maintenance":
		io.WriteString(w, `<!doctype html><title>Back soon</title><h1>Down for maintenance</h1>`)
	case r.URL.Path == "/done" && r.Method == http.MethodPost:
		if variant == "declined" {
			io.WriteString(w, `<!doctype html><title>Declined</title><h1>Payment declined</h1>`)
			return
		}
		v.mu.Lock()
		v.orders++
		v.mu.Unlock()
		io.WriteString(w, `<!doctype html><title>Done</title><h1>Thank you for your order</h1>`)
	case r.URL.Path == "/delete":
		io.WriteString(w, `<!doctype html><title>Deleted</title><h1>Account deleted</h1>`)
	default:
		http.NotFound(w, r)
	}
}

func (v *shopVariants) orderCount() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.orders
}

func TestReplayVariants(t *testing.T) {
	t.Parallel()
	shop := &shopVariants{variant: "base"}
	srv := httptest.NewServer(shop)
	t.Cleanup(srv.Close)
	s, ctx := newSession(t, "variants-record")
	rec := &recorder{t: t, s: s, ctx: ctx, r: &routine.Routine{Format: routine.Format, Name: "variants", Version: 1, Variables: []routine.Variable{{Name: "email"}}}}
	rec.gotoStep("open", srv.URL+"/checkout")
	rec.act("name", calls.ActFill, &routine.Value{Literal: "Ann Example"}, "Ann Example", "textbox", "Full name")
	rec.act("email", calls.ActFill, &routine.Value{From: "input", Slot: "email"}, "ann@example.com", "textbox", "Email")
	rec.act("place", calls.ActClick, nil, "", "button", "Place order")
	rec.r.Steps = append(rec.r.Steps, routine.Step{ID: "thanks", Kind: routine.KindVerify, Check: &routine.Check{Text: "Thank you"}})
	if err := routine.Validate(rec.r); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"email": "ann@example.com"}

	tests := []struct {
		variant    string
		model      bool
		wantCause  Cause
		wantCalls  int
		wantOrders int // orders placed by the replay
	}{
		{"base", true, CauseNone, 0, 1},
		{"cosmetic", true, CauseNone, 0, 1},
		// A model's pick of a submit is asked for again, never pressed on
		// the model's word; the healed routine then replays with none.
		{"renamed", true, CauseNeedsApproval, 1, 0},
		{"renamed", false, CauseMissing, 0, 0},
		// Renamed where it stood: replaced, then one heal call.
		{"renamed-in-place", true, CauseNeedsApproval, 1, 0},
		{"renamed-in-place", false, CauseReplaced, 0, 0},
		// Another control in its place: the model chooses none of the
		// page (it wants "Complete purchase"), and it stays replaced.
		{"substituted", true, CauseReplaced, 1, 0},
		{"signin", true, CauseSignIn, 0, 0},
		{"moved-away", true, CauseLandedAway, 0, 0},
		{"declined", true, CauseVerify, 0, 0},
	}
	for i, tt := range tests {
		t.Run(fmt.Sprintf("%s model=%v", tt.variant, tt.model), func(t *testing.T) {
			shop.set(tt.variant)
			s, ctx := newSession(t, fmt.Sprintf("variant-%d", i))
			m := &outlineModel{Want: "Complete purchase"}
			// NoHand: a person's pace makes each variant take 7–17 s
			// instead of under one; the hand has its own tests.
			o := Options{Vars: vars, KeepHeals: KeepAlways, CheckTimeout: time.Second, Submits: SubmitsAllow, NoHand: true}
			if tt.model {
				o.Model = m
			}
			before := shop.orderCount()
			res, err := Run(ctx, s, rec.r, o)
			if err != nil {
				t.Fatal(err)
			}
			if res.Cause != tt.wantCause || res.ModelCalls != tt.wantCalls || int(m.n.Load()) != tt.wantCalls {
				t.Fatalf("replay = %s %s %q, %d model calls; heals %+v", res.Status, res.Cause, res.Message, res.ModelCalls, res.Heals)
			}
			if got := shop.orderCount() - before; got != tt.wantOrders {
				t.Errorf("orders placed = %d, want %d", got, tt.wantOrders)
			}
			if tt.variant == "renamed-in-place" && tt.model {
				// The heal is told what stands where the button stood.
				if msg, _ := m.last.Load().(string); !strings.Contains(msg, "Where it stood, the page now has") || !strings.Contains(msg, `button "Complete purchase"`) {
					t.Errorf("the heal turn does not name the control in its place:\n%s", msg)
				}
			}
			if strings.HasPrefix(tt.variant, "renamed") && tt.model {
				// The healed version replays with no model call.
				next := res.Routine
				if next == nil || next.Version != 2 || len(next.History) != 1 {
					t.Fatalf("healed = %+v", next)
				}
				s2, ctx2 := newSession(t, fmt.Sprintf("variant-%d-healed", i))
				m2 := &outlineModel{}
				res, err := Run(ctx2, s2, next, Options{Vars: vars, Model: m2, Submits: SubmitsAllow, NoHand: true})
				if err != nil {
					t.Fatal(err)
				}
				if res.Status != StatusOK || res.ModelCalls != 0 || len(res.Heals) != 0 {
					t.Errorf("healed replay = %s %s %q, %d calls, heals %+v", res.Status, res.Cause, res.Message, res.ModelCalls, res.Heals)
				}
			}
		})
	}
}

// TestReplaySignInWallAfterAClick: a link that, on replay, lands on a
// sign-in page stops the replay as sign-in at the next step, with no model
// call though a model is configured.
func TestReplaySignInWallAfterAClick(t *testing.T) {
	t.Parallel()
	var wall atomic.Bool
	mux := http.NewServeMux()
	mux.HandleFunc("/start", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!doctype html><html><head><title>Start</title></head><body><h1>Your basket</h1><a href="/pay">Continue to payment</a></body></html>`)
	})
	mux.HandleFunc("/pay", func(w http.ResponseWriter, r *http.Request) {
		if wall.Load() {
			http.Redirect(w, r, "/login", http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!doctype html><html><head><title>Pay</title></head><body><h1>Payment</h1><label for="c">Card holder</label><input id="c"></body></html>`)
	})
	mux.HandleFunc("/login", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, variants["login"])
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	s, ctx := newSession(t, "wall-record")
	rec := &recorder{t: t, s: s, ctx: ctx, r: &routine.Routine{Format: routine.Format, Name: "wall", Version: 1}}
	rec.gotoStep("open", srv.URL+"/start")
	rec.act("continue", calls.ActClick, nil, "", "link", "Continue to payment")
	if _, err := s.Wait(ctx, calls.WaitRequest{URL: "*/pay"}); err != nil {
		t.Fatal(err)
	}
	rec.act("holder", calls.ActFill, &routine.Value{Literal: "Ann Example"}, "Ann Example", "textbox", "Card holder")

	wall.Store(true)
	s2, ctx2 := newSession(t, "wall-replay")
	m := &outlineModel{Want: "Email"}
	res, err := Run(ctx2, s2, rec.r, Options{Model: m, NoHand: true, CheckTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if res.Cause != CauseSignIn || res.ModelCalls != 0 || m.n.Load() != 0 || !strings.Contains(res.Message, "holder: the page is a sign-in page (/login") {
		t.Fatalf("replay = %s %s %q, %d model calls; steps %+v", res.Status, res.Cause, res.Message, res.ModelCalls, res.Steps)
	}
}
