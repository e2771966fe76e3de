package adversarial

import (
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
)

// lateWhere are late sends the click arms that leave from elsewhere than
// the page's own script: a cross-site iframe, a dedicated worker, a form
// posting into a new window, a beacon as the page is left. Each goes on
// the cue "go", after the click's step ended.
var lateWhere = []struct{ name, page, ready string }{
	{"a cross-site iframe's fetch", `<script>onmessage=()=>{window.frameReady=true}</script><iframe id=fr src="{{other}}/latefetch"></iframe>
<button type=button id=b onclick="document.addEventListener('go',()=>document.getElementById('fr').contentWindow.postMessage('pay','*'),{once:true})">Continue</button>`, "window.frameReady === true"},
	{"a worker's fetch", `<script>const w=new Worker(URL.createObjectURL(new Blob(["onmessage=()=>fetch('"+location.origin+"/pay',{method:'POST',body:'card=4242'})"],{type:'text/javascript'})))</script>
<button type=button id=b onclick="document.addEventListener('go',()=>w.postMessage(1),{once:true})">Continue</button>`, ""},
	{"a form posted into a new window", `<form id=f method=post action=/pay target=_blank><input name=card value=4242></form>
<button type=button id=b onclick="document.addEventListener('go',()=>document.getElementById('f').submit(),{once:true})">Continue</button>`, ""},
	{"a beacon as the page is left", `<button type=button id=b onclick="window.addEventListener('pagehide',()=>navigator.sendBeacon('/pay','card=4242'));document.addEventListener('go',()=>{location.href='/next'},{once:true})">Continue</button>`, ""},
}

// TestGateHoldsLateSendsFromElsewhere: a late send of the click's
// handler that leaves from a frame, a worker or a new window is held as
// the page's own is.
func TestGateHoldsLateSendsFromElsewhere(t *testing.T) {
	t.Parallel()
	for _, c := range lateWhere {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := NewServer(t, nil)
			other := "http://localhost:" + srv.Port()
			srv.Handle("/", "<!doctype html><title>Shop</title>"+strings.ReplaceAll(c.page, "{{other}}", other))
			srv.Handle("/latefetch", `<script>parent.postMessage('ready','*');onmessage=()=>fetch('`+srv.URL("/pay")+`',{method:'POST',mode:'no-cors',body:'card=4242'})</script>`)
			srv.Handle("/next", "<title>next</title>")
			s, ctx := session(t)
			if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil {
				t.Fatal(err)
			}
			for try := 0; c.ready != ""; try++ {
				res, err := s.Eval(ctx, calls.EvalRequest{Expression: c.ready, MainWorld: true})
				if err == nil && string(res.Value) == "true" {
					break
				}
				if try == 100 {
					t.Fatalf("the page never got ready: %v", err)
				}
				time.Sleep(20 * time.Millisecond)
			}
			if _, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#b", Submits: "ask"}); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Eval(ctx, calls.EvalRequest{Expression: `document.dispatchEvent(new Event('go')), true`}); err != nil {
				t.Fatal(err)
			}
			var stopped bool
			for deadline := time.Now().Add(5 * time.Second); !stopped && srv.Count("", "/pay") == 0 && time.Now().Before(deadline); {
				snap, err := s.Snapshot(ctx, calls.SnapshotRequest{Interactive: true})
				if err == nil {
					for _, n := range snap.Notices {
						stopped = stopped || (n.Kind == calls.NoticeSendStopped && strings.Contains(n.Message, "/pay"))
					}
				}
				time.Sleep(20 * time.Millisecond)
			}
			if n := srv.Count("", "/pay"); n != 0 {
				t.Fatalf("the late send reached the server %d times without approval", n)
			}
			if !stopped {
				t.Fatal("no look said the late send was stopped")
			}
		})
	}
}

// TestLateSendsToldOnce: a page that sends in a loop after the click is
// stopped every time, and its looks tell of it a few times, not once a
// request.
func TestLateSendsToldOnce(t *testing.T) {
	t.Parallel()
	srv := NewServer(t, map[string]string{"/": `<!doctype html><title>Shop</title><button type=button id=b onclick="document.addEventListener('go',()=>{for(let i=0;i<40;i++){fetch('/pay/'+(i%20)+'?n='+i,{method:'POST',body:'card=4242'}).catch(()=>{}).finally(()=>{if(i===39)document.title='done'})}},{once:true})">Continue</button>`})
	s, ctx := session(t)
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#b", Submits: "ask"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Eval(ctx, calls.EvalRequest{Expression: `document.dispatchEvent(new Event('go')), true`}); err != nil {
		t.Fatal(err)
	}
	for try := 0; ; try++ {
		res, err := s.Eval(ctx, calls.EvalRequest{Expression: "document.title === 'done'", MainWorld: true})
		if err == nil && string(res.Value) == "true" {
			break
		}
		if try == 250 {
			t.Fatal("the page's sends never ended")
		}
		time.Sleep(20 * time.Millisecond)
	}
	snap, err := s.Snapshot(ctx, calls.SnapshotRequest{Interactive: true})
	if err != nil {
		t.Fatal(err)
	}
	told := 0
	for _, n := range snap.Notices {
		if n.Kind == calls.NoticeSendStopped {
			told++
		}
	}
	if n := srv.Count("POST", ""); n != 0 {
		t.Fatalf("%d late sends reached the server", n)
	}
	if told == 0 || told > 5 {
		t.Fatalf("the look told of %d stopped sends, want 1 to 5", told)
	}
}
