package replay

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/apptest"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/secret"
)

// TestReplayDocSteps: a routine types into a real Quill document after
// words and reads it back into its data, with no model; a secret typed
// there never shows in the result; when the words come twice it stops
// ambiguous and types nothing.
func TestReplayDocSteps(t *testing.T) {
	t.Parallel()
	modules, page := apptest.Quill(t)
	var html atomic.Value
	html.Store(`<p>Dear Ann, the door code is below.</p><p>Code: </p><p>Signed, Bob</p>`)
	nm := http.StripPrefix("/nm/", http.FileServer(http.Dir(modules)))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/nm/") {
			nm.ServeHTTP(w, r)
			return
		}
		c, _ := json.Marshal(map[string]string{"html": html.Load().(string)})
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<script type="application/json" id="content">` + string(c) + "</script>\n"))
		w.Write(page)
	}))
	defer srv.Close()
	r := &routine.Routine{Format: routine.Format, Name: "letter",
		Variables: []routine.Variable{{Name: "team"}, {Name: "code", Secret: true}},
		Steps: []routine.Step{
			{ID: "open", Kind: routine.KindGoto, URL: srv.URL + "/quill.html"},
			{ID: "greet", Kind: routine.KindDocInsert, Doc: &routine.DocStep{After: "Dear Ann,"}, Value: &routine.Value{Template: " and %team%,"}},
			{ID: "code", Kind: routine.KindDocInsert, Doc: &routine.DocStep{After: "Code:"}, Value: &routine.Value{From: "secret", Slot: "code"}},
			{ID: "read", Kind: routine.KindDocRead, Into: "letter"},
		}}
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := routine.Parse(raw); err != nil {
		t.Fatalf("the routine does not load: %v", err)
	}
	opts := Options{Vars: map[string]string{"team": "the sales team"}, Secrets: map[string]secret.Value{"code": secret.New("code", " 7391-2046")}, NoHand: true}
	s, ctx := newSession(t, t.Name())
	res, err := Run(ctx, s, r, opts)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(res)
	if res.Status != StatusOK || res.ModelCalls != 0 {
		t.Fatalf("replay: %s", out)
	}
	if strings.Contains(string(out), "7391") {
		t.Errorf("the secret shows in the result: %s", out)
	}
	var letter struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal(res.Data["letter"], &letter); err != nil || !strings.Contains(letter.Text, "Dear Ann, and the sales team, the door code") {
		t.Errorf("letter %s %v", res.Data["letter"], err)
	}
	doc, err := s.DocRead(ctx, calls.DocReadRequest{})
	// The session reads a value typed as a secret back as its mark, which
	// stands exactly where the whole value was typed.
	if err != nil || strings.Count(doc.Text, "Code:«secret:code»") != 1 || strings.Contains(doc.Text, "7391") {
		t.Errorf("the document holds %q (%v)", doc.Text, err)
	}

	html.Store(`<p>Dear Ann, hello.</p><p>Dear Ann, again.</p>`)
	s2, ctx2 := newSession(t, t.Name()+"-twice")
	res, err = Run(ctx2, s2, &routine.Routine{Format: routine.Format, Name: "twice", Variables: r.Variables, Steps: r.Steps[:2]}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Cause != CauseAmbiguous || !strings.Contains(res.Message, "2 times") {
		t.Errorf("twice: %s %q", res.Cause, res.Message)
	}
	if doc, err := s2.DocRead(ctx2, calls.DocReadRequest{}); err != nil || strings.Contains(doc.Text, "sales") {
		t.Errorf("an ambiguous step typed: %q %v", doc.Text, err)
	}
}
