package sessions

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
)

// searchSite is a shop whose search adds a page number to the address it
// was asked for (/search?q=lamp answers from /search?q=lamp&page=1), and
// whose results link to the cart.
func searchSite() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/search", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Get("page") == "" {
			q.Set("page", "1")
			http.Redirect(w, r, "/search?"+q.Encode(), http.StatusFound)
			return
		}
		item := html.EscapeString(q.Get("q"))
		fmt.Fprintf(w, `<!doctype html><title>Search</title><h1>Results for %s</h1><a href="/cart?item=%s">Add %s to the cart</a>`, item, item, item)
	})
	mux.HandleFunc("/cart", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<!doctype html><title>Cart</title><h1>Cart</h1><p>%s is in your cart</p>`, html.EscapeString(r.URL.Query().Get("item")))
	})
	return mux
}

// turnModel answers the agent loop's turns from functions of the page it
// was shown, so it can name refs Chromium assigns.
type turnModel struct {
	steps []func(outline string) string
	next  int
}

func (m *turnModel) Next(ctx context.Context, turn pilot.Turn) (pilot.Reply, error) {
	if m.next >= len(m.steps) {
		return pilot.Reply{}, fmt.Errorf("turn %d is beyond the script", m.next+1)
	}
	s := m.steps[m.next]
	m.next++
	return pilot.Reply{Data: json.RawMessage(s(turn.Messages[0].Text)), Model: "script"}, nil
}

var linkRef = regexp.MustCompile(`- link "Add lamp to the cart"[^\n]*\[ref=(e[0-9]+)\]`)

// TestRecordBothWaysThenReplay records one flow by hand (the recorder
// behind waymark record) and through the agent loop (waymark run
// --record, with a scripted model): a goto to a URL with a query string
// that the site sends on with a parameter added, and a click. Both
// recorders write the same goto, and both routines replay with no model.
// Before the one step builder, the agent loop's routine stopped every
// replay as landed-elsewhere.
func TestRecordBothWaysThenReplay(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(searchSite())
	t.Cleanup(srv.Close) // after the harness closes its sessions
	h := newHarness(t, 120*time.Second)
	ctx := h.ctx
	search := srv.URL + "/search?q=lamp"

	// By hand.
	handle := h.in("both-hand")
	handle(calls.MethodRecordStart, calls.RecordStartRequest{Name: "lamp"})
	handle(calls.MethodOpen, calls.OpenRequest{URL: search})
	snap := handle(calls.MethodSnapshot, calls.SnapshotRequest{Interactive: true, Full: true}).(*calls.Snapshot)
	ref := linkRef.FindStringSubmatch(snap.Text)
	if ref == nil {
		t.Fatalf("no link in\n%s", snap.Text)
	}
	handle(calls.MethodAct, calls.ActRequest{Kind: calls.ActClick, Target: "@" + ref[1]})
	out := handle(calls.MethodRecordStop, calls.RecordStopRequest{}).(*calls.RecordStopResult)
	byHand, err := routine.Parse(out.Routine)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.Routine)
	}

	// Through the agent loop.
	s := h.session("both-pilot")
	model := &turnModel{steps: []func(string) string{
		func(string) string {
			return fmt.Sprintf(`{"thought":"search for a lamp","action":{"type":"act","op":"goto","url":%q,"expect":{"url_changes_to":"/search?q=lamp*"}}}`, search)
		},
		func(o string) string {
			ref := linkRef.FindStringSubmatch(o)
			if ref == nil {
				return `{"thought":"no link","action":{"type":"fail","reason":"no link"}}`
			}
			return fmt.Sprintf(`{"thought":"add it","action":{"type":"act","op":"click","ref":%q,"expect":{"url_changes_to":"/cart*"}}}`, ref[1])
		},
		func(string) string {
			return `{"thought":"in the cart","action":{"type":"done","expect":{"text_appears":"lamp is in your cart"}}}`
		},
	}}
	res, err := pilot.New(s, model, nil).Run(ctx, "Put a lamp in the cart", pilot.RunOptions{Record: true, VerifyWait: -1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Routine == nil {
		t.Fatalf("the run recorded no routine: %+v", res)
	}
	byLoop, err := routine.Parse(mustMarshal(t, res.Routine))
	if err != nil {
		t.Fatal(err)
	}

	// One goto, written the same way by both.
	want := &routine.Landed{Path: "/search", Query: "q=lamp", Title: "Search", Status: 200}
	for name, r := range map[string]*routine.Routine{"by hand": byHand, "agent loop": byLoop} {
		if len(r.Steps) < 2 || r.Steps[0].Kind != routine.KindGoto || r.Steps[1].Op != calls.ActClick {
			t.Fatalf("%s: steps %+v", name, r.Steps)
		}
		if diff := cmp.Diff(want, r.Steps[0].Landed); diff != "" {
			t.Errorf("%s: landed (-want +got):\n%s", name, diff)
		}
	}

	// Both replay, in fresh sessions, with no model.
	for name, r := range map[string]*routine.Routine{"by hand": byHand, "agent loop": byLoop} {
		rs := h.session("both-replay-" + name)
		got, err := replay.Run(ctx, rs, r, replay.Options{NoHand: true, CheckTimeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != replay.StatusOK || got.ModelCalls != 0 {
			t.Errorf("%s: replay = %s %s %q; steps %+v", name, got.Status, got.Cause, got.Message, got.Steps)
		}
		info, err := rs.Get(ctx, calls.GetRequest{What: "url"})
		if err != nil {
			t.Fatal(err)
		}
		if !calls.MatchURL("/cart?item=lamp", info.Value) {
			t.Errorf("%s: the replay ended at %s", name, info.Value)
		}
	}
}

func mustMarshal(t *testing.T, r *routine.Routine) []byte {
	t.Helper()
	b, err := routine.Marshal(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
