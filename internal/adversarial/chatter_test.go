package adversarial

import (
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/replay"
)

// Commit or chatter (issue 27, item 7). A plain click on a real page sends
// an analytics beacon, a telemetry POST, a GraphQL query; the submit gate
// must let those go (or stop them silently) and the step go on, with no
// approval asked. And a commit dressed as chatter — a mutation named like
// a query, a beacon carrying what was typed, a telemetry path that
// deletes, a beacon to the site's own /order — must still be held, with
// nothing reaching the server. Both are counted at the loopback server.

// chatterCase is one page whose button #b sends when clicked.
type chatterCase struct {
	name string
	// send is the script the button runs; {{other}} is another site (the
	// same server under the name localhost).
	send string
	// path is the path the send goes to, counted at the server.
	path string
	// setup is done with Submits "allow" before the click.
	setup []calls.ActRequest
}

// chatterPage is a page with a field and a plain button that sends.
func chatterPage(send string) string {
	return `<!doctype html><title>Shop</title><h1>Shoes</h1>
<label>Email <input id=email name=email></label>
<button type=button id=b onclick="` + strings.ReplaceAll(send, `"`, "&quot;") + `">Show details</button>`
}

// typeEmail is the setup that types an address into the page's field.
var typeEmail = []calls.ActRequest{{Kind: calls.ActFill, Target: "css=#email", Value: "ann.typed@example.org"}}

var chatterCases = []chatterCase{
	{name: "keepalive POST to /hit", path: "/hit",
		send: `fetch('/hit',{method:'POST',keepalive:true,body:'ev=click&el=details'})`},
	{name: "GA-style collect beacon to another site", path: "/g/collect",
		send: `navigator.sendBeacon('{{other}}/g/collect?v=2&tid=G-1&en=click','')`},
	{name: "same-site telemetry POST", path: "/telemetry",
		send: `fetch('/telemetry',{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({ev:'click',t:Date.now()})})`},
	{name: "GraphQL query on click", path: "/graphql",
		send: `fetch('/graphql',{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({operationName:'Details',query:'query Details($id: ID!) { product(id: $id) { name price } }',variables:{id:'7'}})})`},
	{name: "JSON-RPC read", path: "/rpc",
		send: `fetch('/rpc',{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({jsonrpc:'2.0',id:1,method:'getProductDetails',params:[7]})})`},
	{name: "Sentry-like error post to another site", path: "/api/42/envelope/",
		send: `fetch('{{other}}/api/42/envelope/?sentry_key=abc',{method:'POST',mode:'no-cors',body:'{"event_id":"1"}\n{"type":"event"}'})`},
	{name: "beacon to the site's own /events", path: "/events",
		send: `navigator.sendBeacon('/events',JSON.stringify({name:'details_open'}))`},
}

var commitAsChatter = []chatterCase{
	{name: "mutation named like a query", path: "/graphql",
		send: `fetch('/graphql?query=GetCart',{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({operationName:'GetCartQuery',query:'mutation GetCartQuery { wipeCart(id: 1) { id } }'})})`},
	{name: "query then a mutation in one document", path: "/graphql",
		send: `fetch('/graphql',{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({query:'query A { me { id } } mutation B { wipeCart { id } }'})})`},
	{name: "mutation to another site", path: "/graphql",
		send: `fetch('{{other}}/graphql',{method:'POST',mode:'no-cors',body:JSON.stringify({query:'mutation { wipeCart { id } }'})})`},
	{name: "beacon carrying the typed values", path: "/collect", setup: typeEmail,
		send: `navigator.sendBeacon('/collect',JSON.stringify({ev:'click',email:document.getElementById('email').value}))`},
	{name: "beacon to another site carrying the typed values base64", path: "/g/collect", setup: typeEmail,
		send: `navigator.sendBeacon('{{other}}/g/collect','d='+btoa('x'+document.getElementById('email').value))`},
	{name: "GraphQL query to another site with the typed values beside it", path: "/graphql", setup: typeEmail,
		send: `fetch('{{other}}/graphql',{method:'POST',mode:'no-cors',body:JSON.stringify({query:'{ me { id } }',email:document.getElementById('email').value})})`},
	{name: "telemetry path that deletes", path: "/analytics/delete",
		send: `navigator.sendBeacon('/analytics/delete','id=1')`},
	{name: "collect with action=delete", path: "/collect",
		send: `fetch('/collect?action=delete&id=1',{method:'POST',keepalive:true,body:'x=1'})`},
	{name: "beacon to /collect whose body asks to delete", path: "/collect",
		send: `navigator.sendBeacon('/collect','action=delete&id=1')`},
	{name: "payment to another site with no word the list has", path: "/v1/payments",
		send: `fetch('{{other}}/v1/payments',{method:'POST',mode:'no-cors',body:JSON.stringify({amount:1000,currency:'eur'})})`},
	{name: "sendBeacon to the site's own /order", path: "/order",
		send: `navigator.sendBeacon('/order','item=7&qty=1')`},
	{name: "JSON-RPC write named like a read, to another site", path: "/rpc",
		send: `fetch('{{other}}/rpc',{method:'POST',mode:'no-cors',body:JSON.stringify({jsonrpc:'2.0',id:1,method:'getAndTransferFunds',params:[7]})})`},
}

// clickChatter opens the case's page, does its setup and clicks #b with
// Submits "ask"; it returns the click's error, counting only what the
// click caused.
func clickChatter(t *testing.T, c chatterCase) (*Server, *calls.Outcome, error) {
	t.Helper()
	srv := NewServer(t, nil)
	other := "http://localhost:" + srv.Port()
	srv.Handle("/", chatterPage(strings.ReplaceAll(c.send, "{{other}}", other)))
	s, ctx := session(t)
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil {
		t.Fatal(err)
	}
	for _, st := range c.setup {
		st.Submits = "allow"
		if _, err := s.Act(ctx, st); err != nil {
			t.Fatalf("setup %s: %v", st.Kind, err)
		}
	}
	srv.Reset()
	out, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#b", Submits: "ask"})
	return srv, out, err
}

// reaches waits until the server got a request to path, for at most 3 s.
func reaches(srv *Server, path string) bool {
	for range 150 {
		if srv.Count("", path) > 0 {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

func TestChatterGoesWithoutApproval(t *testing.T) {
	t.Parallel()
	asked := 0
	for _, c := range chatterCases {
		t.Run(c.name, func(t *testing.T) {
			srv, out, err := clickChatter(t, c)
			if err != nil {
				asked++
				t.Fatalf("a plain click stopped: %v", err)
			}
			if !reaches(srv, c.path) {
				t.Errorf("the page's %s never reached the server", c.path)
			}
			t.Logf("chatter listed: %v", out.Chatter)
		})
	}
	t.Logf("friction: %d of %d plain clicks asked for approval", asked, len(chatterCases))
}

func TestCommitDressedAsChatterHeld(t *testing.T) {
	t.Parallel()
	for _, c := range commitAsChatter {
		t.Run(c.name, func(t *testing.T) {
			srv, _, err := clickChatter(t, c)
			if approvalOf(err) == nil {
				t.Errorf("want needs_approval, got %v", err)
			}
			time.Sleep(300 * time.Millisecond) // a beacon is sent after the click returns
			if n := srv.Count("", c.path); n != 0 || srv.Sent() != 0 {
				t.Errorf("the server got %d requests to %s (%d that send) without approval", n, c.path, srv.Sent())
			}
		})
	}
}

// autosavePage saves the form 400 ms after its select changes: a debounced
// autosave that a fill's own change starts.
const autosavePage = `<!doctype html><title>Settings</title>
<form id=f>
<label>Name <input name=name></label>
<label>Plan <select name=plan id=plan><option>Basic</option><option>Pro</option></select></label>
</form>
<script>
let timer;
document.getElementById('plan').addEventListener('change', () => {
  clearTimeout(timer);
  timer = setTimeout(() => fetch('/autosave', {method: 'POST', body: new URLSearchParams(new FormData(document.getElementById('f')))}), 400);
});
</script>`

func TestFormFillHoldsADebouncedAutosave(t *testing.T) {
	t.Parallel()
	srv := NewServer(t, map[string]string{"/": autosavePage})
	s, ctx := session(t)
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil {
		t.Fatal(err)
	}
	srv.Reset()
	res, err := s.FillForm(ctx, calls.FormFillRequest{Answers: map[string]string{"name": "Ann", "plan": "Pro"}})
	if err != nil {
		t.Fatal(err)
	}
	// The autosave fires 400 ms after the change: give it its time, and
	// more, before counting.
	time.Sleep(1500 * time.Millisecond)
	if n := srv.Count("POST", "/autosave"); n != 0 {
		t.Errorf("the autosave reached the server %d time(s) after form fill returned", n)
	}
	found := false
	for _, st := range res.Stopped {
		found = found || strings.Contains(st, "/autosave")
	}
	if !found {
		t.Errorf("the fill's result does not list the autosave it stopped: %v", res.Stopped)
	}
}

// TestApprovedSubmitSurvivesCosmeticWords: a person approved "Place
// order" when recording; the page now shows it in capitals (CSS), or its
// words changed while the form, where it goes and what it carries stayed.
// The replay presses it once, without asking; a changed target still asks
// (TestApprovedSubmitAsksAgainWhenThePageChanged).
func TestApprovedSubmitSurvivesCosmeticWords(t *testing.T) {
	t.Parallel()
	srv := NewServer(t, map[string]string{"/checkout": orderAt("t0"), "/order": "<title>ordered</title>"})
	r, trust := approvedOrder(t, srv)
	for _, tt := range []struct{ name, page string }{
		{"words in capitals", orderAt("t1", "<h1>", "<style>#pay{text-transform:uppercase}</style><h1>")},
		{"words in another language, same name for the locator", orderAt("t1", "<button id=pay>Place order</button>", `<button id=pay aria-label="Place order"><span aria-hidden=true>Bestellen</span></button>`)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv.Handle("/checkout", tt.page)
			s, ctx := session(t)
			srv.Reset()
			res, err := replay.Run(ctx, s, r, replay.Options{CheckTimeout: -1, Submits: replay.SubmitsAsk, Approvals: trust})
			if err != nil {
				t.Fatalf("replay: %v", err)
			}
			if res.Status != replay.StatusOK || srv.Count("POST", "/order") != 1 || srv.Sent() != 1 {
				t.Fatalf("replay %s %q, %d sends (%v)", res.Status, res.Message, srv.Sent(), srv.Requests())
			}
		})
	}
}
