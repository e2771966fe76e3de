package adversarial

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/secret"
)

// The submit gate, attacked: each page sends a POST to /pay (or a GET form
// submission to /pay) when its trigger is used; with Submits "ask" and no
// approval, the server must receive nothing that sends, and the step must
// say needs_approval.

// payForm is a form that posts to /pay, with a field to type in.
const payForm = `<form id=f method=post action=/pay><label>Name <input name=name value=Ann></label>
<label>Card <input name=card value=4242></label>%s</form>`

type gateCase struct {
	// before: the check before acting must catch it (its better message,
	// nothing pressed), not only the hold at sending.
	before bool
	name   string
	page   string             // the body; %s in payForm style is already filled
	setup  []calls.ActRequest // done with Submits "allow" before the attack
	// ready, when set, is a script (in the page's world) that must be true
	// after the setup before the attack: a click on a frame still starting
	// its renderer may miss it. The setup is done again until it is.
	ready string
	act   calls.ActRequest // done with Submits "ask"
}

func form(extra string) string { return strings.Replace(payForm, "%s", extra, 1) }

// focusIn says the focus is in the iframe #fr.
const focusIn = "document.activeElement !== null && document.activeElement.id === 'fr'"

// post is a script that sends a POST to /pay with fetch.
const post = `fetch('/pay',{method:'POST',body:'card=4242'})`

var gateCases = []gateCase{
	// Listed in issue 12.
	{before: true, name: "press Enter in a field (baseline)", page: form(`<button>Go</button>`),
		act: calls.ActRequest{Kind: calls.ActPress, Target: "label=Name", Key: "Enter"}},
	{before: true, name: "press Return in a field", page: form(`<button>Go</button>`),
		act: calls.ActRequest{Kind: calls.ActPress, Target: "label=Name", Key: "Return"}},
	{before: true, name: "Shift+Enter in a field", page: form(`<button>Go</button>`),
		act: calls.ActRequest{Kind: calls.ActPress, Target: "label=Name", Key: "Shift+Enter"}},
	{before: true, name: "press Enter on a focused submit button", page: form(`<button id=b>Go</button>`),
		act: calls.ActRequest{Kind: calls.ActPress, Target: "css=#b", Key: "Enter"}},
	{before: true, name: "press Space on a focused submit button", page: form(`<button id=b>Go</button>`),
		act: calls.ActRequest{Kind: calls.ActPress, Target: "css=#b", Key: "Space"}},
	{name: "select whose onchange submits", page: form(`<select name=plan onchange="this.form.submit()"><option>a<option>b</select>`),
		act: calls.ActRequest{Kind: calls.ActSelect, Target: "css=select", Values: []string{"b"}}},
	{name: "checkbox whose onchange submits", page: form(`<label><input type=checkbox name=ok onchange="this.form.submit()"> I agree</label>`),
		act: calls.ActRequest{Kind: calls.ActCheck, Target: "css=input[type=checkbox]"}},
	{before: true, name: `type "hi\n"`, page: form(`<button>Go</button>`),
		act: calls.ActRequest{Kind: calls.ActType, Target: "label=Name", Value: "hi\n"}},
	{name: "Next button calls requestSubmit", page: form(`<button type=button id=n onclick="this.form.requestSubmit()">Next</button>`),
		act: calls.ActRequest{Kind: calls.ActClick, Target: "css=#n"}},
	{name: "Enter with focus inside an iframe", page: `<iframe id=fr style="width:300px;height:60px;border:0" srcdoc="<body style=margin:0><form method=post action=/pay><input name=q value=x style=width:100%;height:50px></form>"></iframe>`,
		setup: []calls.ActRequest{{Kind: calls.ActClick, Target: "css=#fr"}}, ready: focusIn,
		act: calls.ActRequest{Kind: calls.ActPress, Key: "Enter"}},
	{before: true, name: "name from aria-labelledby", page: `<span id=l>Pay now</span><div role=button id=b aria-labelledby=l onclick="` + post + `">→</div>`,
		act: calls.ActRequest{Kind: calls.ActClick, Target: "css=#b"}},
	{before: true, name: "name from CSS ::before", page: `<style>#b::before{content:"Pay now"}</style><button type=button id=b onclick="` + post + `"></button>`,
		act: calls.ActRequest{Kind: calls.ActClick, Target: "css=#b"}},
	{before: true, name: "soft hyphen in the name", page: `<button type=button id=b onclick="` + post + `">Pa&shy;y now</button>`,
		act: calls.ActRequest{Kind: calls.ActClick, Target: "css=#b"}},
	{before: true, name: "Cyrillic look-alike in the name", page: `<button type=button id=b onclick="` + post + `">Pаy now</button>`,
		act: calls.ActRequest{Kind: calls.ActClick, Target: "css=#b"}},
	// Outside the old hand-picked Cyrillic and Greek subset (issue 28):
	// TR39's whole table.
	{before: true, name: "Cherokee and Armenian look-alikes in the name", page: `<button type=button id=b onclick="` + post + `">ꮪսbmіt</button>`,
		act: calls.ActRequest{Kind: calls.ActClick, Target: "css=#b"}},
	{before: true, name: "Cherokee capitals in the name", page: `<button type=button id=b onclick="` + post + `">ᎠᎬᏞᎬᎢᎬ</button>`,
		act: calls.ActRequest{Kind: calls.ActClick, Target: "css=#b"}},

	// Variants of our own.
	{before: true, name: "zero-width space in the name", page: `<button type=button id=b onclick="` + post + `">Pa&#8203;y now</button>`,
		act: calls.ActRequest{Kind: calls.ActClick, Target: "css=#b"}},
	{before: true, name: "fullwidth letters in the name", page: `<button type=button id=b onclick="` + post + `">Ｐａｙ now</button>`,
		act: calls.ActRequest{Kind: calls.ActClick, Target: "css=#b"}},
	{name: "harmless words, fetch POST", page: `<button type=button id=b onclick="` + post + `">Continue</button>`,
		act: calls.ActRequest{Kind: calls.ActClick, Target: "css=#b"}},
	{name: "XHR PUT from a div", page: `<div id=b onclick="var x=new XMLHttpRequest();x.open('PUT','/pay');x.send('a=1')">Continue</div>`,
		act: calls.ActRequest{Kind: calls.ActClick, Target: "css=#b"}},
	{name: "fetch DELETE", page: `<button type=button id=b onclick="fetch('/pay',{method:'DELETE'})">Tidy up</button>`,
		act: calls.ActRequest{Kind: calls.ActClick, Target: "css=#b"}},
	{name: "sendBeacon on click", page: `<button type=button id=b onclick="navigator.sendBeacon('/pay','card=4242')">Continue</button>`,
		act: calls.ActRequest{Kind: calls.ActClick, Target: "css=#b"}},
	{name: "form.submit() from a span", page: form(`<span id=b onclick="document.getElementById('f').submit()">Continue</span>`),
		act: calls.ActRequest{Kind: calls.ActClick, Target: "css=#b"}},
	{name: "GET form submitted by a plain button", page: `<form method=get action=/pay><input name=card value=4242><button type=button onclick="this.form.submit()" id=b>Continue</button></form>`,
		act: calls.ActRequest{Kind: calls.ActClick, Target: "css=#b"}},
	{name: "keydown handler posts on Enter in a contenteditable", page: `<div id=b contenteditable onkeydown="if(event.key==='Enter')` + post + `">x</div>`,
		act: calls.ActRequest{Kind: calls.ActPress, Target: "css=#b", Key: "Enter"}},
	{before: true, name: "dblclick on a submit button", page: form(`<button id=b>Go</button>`),
		act: calls.ActRequest{Kind: calls.ActDblClick, Target: "css=#b"}},
	{name: "submit after a timer started by the click", page: form(`<button type=button id=b onclick="setTimeout(()=>document.getElementById('f').submit(),0)">Continue</button>`),
		act: calls.ActRequest{Kind: calls.ActClick, Target: "css=#b"}},
	{name: "hover submits", page: form(`<div id=b onmouseover="document.getElementById('f').submit()">Hover me</div>`),
		act: calls.ActRequest{Kind: calls.ActHover, Target: "css=#b"}},
	{name: "fill whose input event posts", page: `<input id=b oninput="` + post + `">`,
		act: calls.ActRequest{Kind: calls.ActFill, Target: "css=#b", Value: "x"}},
	{before: true, name: "button outside its form (form= attribute)", page: form(``) + `<button form=f id=b>Continue</button>`,
		act: calls.ActRequest{Kind: calls.ActClick, Target: "css=#b"}},
	{before: true, name: "image input submits", page: form(`<input type=image id=b alt=Continue src=data:,>`),
		act: calls.ActRequest{Kind: calls.ActClick, Target: "css=#b"}},
	{name: "Enter with focus inside a cross-site iframe", page: `<iframe id=fr style="width:300px;height:60px;border:0" src="{{other}}/frame"></iframe>`,
		setup: []calls.ActRequest{{Kind: calls.ActClick, Target: "css=#fr"}}, ready: focusIn,
		act: calls.ActRequest{Kind: calls.ActPress, Key: "Enter"}},
	{name: "fetch POST from a same-origin iframe on click", page: `<script>onmessage=()=>{window.frameReady=true}</script><iframe id=fr style="width:300px;height:60px;border:0" src="/framefetch"></iframe>`,
		ready: "window.frameReady === true", act: calls.ActRequest{Kind: calls.ActClick, Target: "css=#fr"}},
	{name: "fetch POST from a cross-site iframe on click", page: `<script>onmessage=()=>{window.frameReady=true}</script><iframe id=fr style="width:300px;height:60px;border:0" src="{{other}}/framefetch"></iframe>`,
		ready: "window.frameReady === true", act: calls.ActRequest{Kind: calls.ActClick, Target: "css=#fr"}},
	{name: "form posts into a target=_blank window", page: strings.Replace(form(`<button type=button id=b onclick="this.form.submit()">Continue</button>`), "<form ", "<form target=_blank ", 1),
		act: calls.ActRequest{Kind: calls.ActClick, Target: "css=#b"}},
}

func TestGateHoldsAtSending(t *testing.T) {
	t.Parallel()
	var held atomic.Int32
	// The cases run side by side, each in a session of its own (most of a
	// case is waiting for the page and the gate's watch).
	t.Run("cases", func(t *testing.T) {
		for _, c := range gateCases {
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				defer func() {
					if !t.Failed() {
						held.Add(1)
					}
				}()
				srv := NewServer(t, nil)
				// {{other}} is the same server under the name localhost: another
				// site, so its frames run in a process of their own.
				other := "http://localhost:" + srv.Port()
				srv.Handle("/", "<!doctype html><title>Shop</title>"+strings.ReplaceAll(c.page, "{{other}}", other))
				srv.Handle("/pay", "<title>paid</title>")
				srv.Handle("/frame", `<body style=margin:0><form method=post action="`+srv.URL("/pay")+`"><input name=q value=x style=width:100%;height:50px></form>`)
				srv.Handle("/framefetch", `<body style=margin:0><script>parent.postMessage('ready','*')</script><div style=width:100%;height:60px onclick="fetch('`+srv.URL("/pay")+`',{method:'POST',mode:'no-cors',body:'card=4242'})">Continue</div>`)
				s, ctx := session(t)
				attack := func(submits string) error {
					t.Helper()
					if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil {
						t.Fatal(err)
					}
					for try := 0; ; try++ {
						for _, st := range c.setup {
							st.Submits = "allow"
							if _, err := s.Act(ctx, st); err != nil {
								t.Fatalf("setup %s: %v", st.Kind, err)
							}
						}
						if c.ready == "" {
							break
						}
						res, err := s.Eval(ctx, calls.EvalRequest{Expression: c.ready, MainWorld: true})
						if err == nil && string(res.Value) == "true" {
							break
						}
						if try == 50 {
							t.Fatalf("the page never got ready (%s: %s, %v)", c.ready, res.Value, err)
						}
						time.Sleep(20 * time.Millisecond)
					}
					srv.Reset()
					req := c.act
					req.Submits = submits
					_, err := s.Act(ctx, req)
					return err
				}
				// The page really sends when allowed: else the case proves nothing.
				if err := attack("allow"); err != nil {
					// What counts is that it sent; a checkbox whose change
					// navigates may report the page going away (issue 12,
					// bad input).
					t.Logf("allowed: %v", err)
				}
				// A submission in a frame is a task of its own: it may reach the
				// server a moment after the action returned.
				for i := 0; srv.Count("", "/pay") == 0; i++ {
					if i == 150 {
						t.Fatalf("the page sent nothing even when allowed: the case proves nothing")
					}
					time.Sleep(20 * time.Millisecond)
				}
				err := attack("ask")
				if n := srv.Count("", "/pay"); n != 0 || srv.Sent() != 0 {
					t.Errorf("the server got %d requests to /pay (%d that send) without approval", n, srv.Sent())
				}
				a := approvalOf(err)
				switch {
				case a == nil:
					time.Sleep(2 * time.Second)
					t.Errorf("want needs_approval, got %v (later: %d requests to /pay)", err, srv.Count("", "/pay"))
				case c.before && a.Sends != "":
					t.Errorf("the check before acting missed it; it was held at sending (%s)", a.Why)
				}
			})
		}
	})
	t.Logf("submit gate: %d of %d cases held", held.Load(), len(gateCases))
}

func TestApprovalBoundToLoadAndUsedOnce(t *testing.T) {
	t.Parallel()
	next := form(`<button type=button id=n onclick="this.form.requestSubmit()">Next</button>`)
	srv := NewServer(t, map[string]string{"/": "<!doctype html><title>Shop</title>" + next, "/pay": "<title>paid</title>"})
	s, ctx := session(t)
	open := func(path string) {
		t.Helper()
		if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL(path)}); err != nil {
			t.Fatal(err)
		}
	}
	click := calls.ActRequest{Kind: calls.ActClick, Target: "css=#n", Submits: "ask"}
	approved := func(a *calls.Approval) calls.ActRequest { r := click; r.Submits = ""; r.Approve = a; return r }

	open("/")
	_, err := s.Act(ctx, click)
	a := approvalOf(err)
	if a == nil || a.Sends != "POST "+srv.URL("/pay") || a.Form["card"] != secret.Masked || a.Token == "" {
		t.Fatalf("want an approval naming POST /pay and its form, got %+v (%v)", a, err)
	}

	// Replayed on a later load of the same page: refused, nothing sent.
	open("/")
	srv.Reset()
	_, err = s.Act(ctx, approved(a))
	if !errors.Is(err, calls.ErrNeedsApproval) || srv.Sent() != 0 {
		t.Fatalf("an approval from an earlier load: err %v, %d sends", err, srv.Sent())
	}

	// Given on this load and used: the one approved request goes, once.
	_, err = s.Act(ctx, click)
	a = approvalOf(err)
	if a == nil {
		t.Fatalf("no approval: %v", err)
	}
	srv.Reset()
	if _, err := s.Act(ctx, approved(a)); err != nil {
		t.Fatalf("approved: %v", err)
	}
	if n := srv.Count("POST", "/pay"); n != 1 {
		t.Fatalf("the approved send reached the server %d times, want 1", n)
	}

	// Used again on the same load (the page came back to it): refused.
	open("/")
	srv.Reset()
	if _, err := s.Act(ctx, approved(a)); !errors.Is(err, calls.ErrNeedsApproval) || srv.Sent() != 0 {
		t.Fatalf("an approval used twice: err %v, %d sends", err, srv.Sent())
	}

	// An approval for one send does not let another through.
	_, err = s.Act(ctx, click)
	a = approvalOf(err)
	a.Sends = "POST " + srv.URL("/elsewhere")
	srv.Reset()
	if _, err := s.Act(ctx, approved(a)); approvalOf(err) == nil || srv.Sent() != 0 {
		t.Fatalf("an approval for another send: err %v, %d sends", err, srv.Sent())
	}
}
