package sessions

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/apptest"
	"github.com/waymark-dev/waymark/routine"
)

// A doc insert recorded by hand is a doc_insert step at the same place,
// its text a variable (a secret one never written into the routine).
func TestRecordDocInsert(t *testing.T) {
	t.Parallel()
	modules, page := apptest.Quill(t)
	nm := http.StripPrefix("/nm/", http.FileServer(http.Dir(modules)))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/nm/") {
			nm.ServeHTTP(w, r)
			return
		}
		c, _ := json.Marshal(map[string]string{"html": `<p>Dear Ann, hello.</p><p>Code:</p>`})
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<script type="application/json" id="content">` + string(c) + "</script>\n"))
		w.Write(page)
	}))
	t.Cleanup(srv.Close) // after the harness closes its sessions
	h := newHarness(t, 120*time.Second)
	handle := h.in("doc-rec")
	handle(calls.MethodRecordStart, calls.RecordStartRequest{Name: "letter"})
	handle(calls.MethodOpen, calls.OpenRequest{URL: srv.URL + "/quill.html"})
	handle(calls.MethodDocInsert, calls.DocInsertRequest{After: "Dear Ann,", Text: " and team,"})
	handle(calls.MethodDocInsert, calls.DocInsertRequest{After: "Code:", Text: " 7391-2046", Secret: "door"})
	out := handle(calls.MethodRecordStop, calls.RecordStopRequest{}).(*calls.RecordStopResult)
	if strings.Contains(string(out.Routine), "7391") {
		t.Fatalf("the secret is in the routine: %s", out.Routine)
	}
	r, err := routine.Parse(out.Routine)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.Routine)
	}
	var docs []routine.Step
	for _, s := range r.Steps {
		if s.Kind == routine.KindDocInsert {
			docs = append(docs, s)
		}
	}
	if len(docs) != 2 || docs[0].Doc == nil || docs[0].Doc.After != "Dear Ann," || docs[0].Value == nil || docs[0].Value.Slot == "" ||
		docs[1].Value == nil || docs[1].Value.From != "secret" {
		t.Fatalf("doc steps %s", out.Routine)
	}
	if out.Values[docs[0].Value.Slot] != " and team," {
		t.Errorf("values %v", out.Values)
	}
}
