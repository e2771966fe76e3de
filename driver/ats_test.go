package driver_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/policy"
)

// An ATS-like application page, built here: the board's embed container,
// a custom select that renders its options only when opened, and no
// field for one of the published questions.
const greenhousePage = `<!doctype html><title>Apply: Deckhand</title>
<div id=grnhse_app><form id=application_form method=post action=/submit>
<label>First Name <input name=first_name></label>
<label>Email <input name=email></label>
<span id=vl>Visa status</span><div role=combobox aria-haspopup=listbox aria-labelledby=vl aria-controls=vlist tabindex=0>Select…</div>
<ul id=vlist role=listbox hidden></ul>
</form></div>`

// The Job Board API's answer for board acme, job 4012345, in its public
// shape (questions[] with label, required, fields[] {name, type, values}).
const greenhouseJob = `{"id": 4012345, "title": "Deckhand", "questions": [
 {"label": "First Name", "required": true, "fields": [{"name": "first_name", "type": "input_text", "values": []}]},
 {"label": "Email", "required": true, "fields": [{"name": "email", "type": "input_text", "values": []}]},
 {"label": "Visa status", "required": true, "fields": [{"name": "question_77", "type": "multi_value_single_select",
   "values": [{"label": "Citizen", "value": 1}, {"label": "Work permit", "value": 2}, {"label": "Need sponsorship", "value": 3}]}]},
 {"label": "LinkedIn Profile", "required": false, "fields": [{"name": "question_78", "type": "input_text", "values": []}]},
 {"label": "", "required": false, "fields": [{"name": "mapped_url_token", "type": "input_hidden", "values": []}]}]}`

// Ashby's posting, in the shape its hosted pages read.
const ashbyPosting = `{"data": {"jobPosting": {"id": "p-1", "applicationForm": {"sections": [{"fieldEntries": [
 {"isRequired": true, "field": {"path": "_systemfield_name", "title": "Name", "type": "String"}},
 {"isRequired": true, "field": {"path": "q_shift", "title": "Preferred shift", "type": "ValueSelect",
   "selectableValues": [{"label": "Day", "value": "d"}, {"label": "Night", "value": "n"}]}}]}]}}}}`

const ashbyPage = `<!doctype html><title>Apply</title><form>
<label>Name <input name=_systemfield_name></label></form>`

// apiServer answers as the ATS APIs would, on loopback, and keeps what
// reached it.
func apiServer(t *testing.T) (*httptest.Server, func() []string) {
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.RequestURI()+" cookie="+r.Header.Get("Cookie")+" "+string(body))
		mu.Unlock()
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Header().Set("Access-Control-Allow-Headers", "content-type")
		switch {
		case r.Method == http.MethodOptions:
		case r.URL.Path == "/v1/boards/acme/jobs/4012345":
			io.WriteString(w, greenhouseJob)
		case r.URL.Path == "/api/non-user-graphql" && strings.Contains(string(body), `"jobPostingId":"p-1"`):
			io.WriteString(w, ashbyPosting)
		default:
			http.Error(w, "no such job", http.StatusNotFound)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string { mu.Lock(); defer mu.Unlock(); return slices.Clone(seen) }
}

// A Greenhouse or Ashby form is named on the look's first line, and its
// published definition is read once and laid over the ledger: the
// options a custom select has not rendered, required flags, and the
// questions no field matched; an API that fails leaves a note.
func TestFormATSDefinition(t *testing.T) {
	t.Parallel()
	api, seen := apiServer(t)
	// The daemon's URL policy judges the definition's request like any
	// other: this board's API is blocked.
	pol, err := policy.New(policy.Options{Block: []string{api.URL + "/v1/boards/blocked/"}})
	if err != nil {
		t.Fatal(err)
	}
	b, ctx := launchLimited(t, driver.Options{Policy: pol, ATS: driver.ATSOptions{GreenhouseAPI: api.URL, AshbyAPI: api.URL}})
	s, err := b.Session(ctx, "ats")
	if err != nil {
		t.Fatal(err)
	}
	site := serve(t, map[string]string{"/acme/jobs/4012345": greenhousePage, "/acme/jobs/999": greenhousePage, "/blocked/jobs/1": greenhousePage, "/ocean/p-1/application": ashbyPage})
	open(t, s, ctx, site.URL+"/acme/jobs/4012345")
	if _, err := s.Eval(ctx, calls.EvalRequest{Expression: `document.cookie = "session=s3cr3t; path=/"`, MainWorld: true}); err != nil {
		t.Fatal(err)
	}
	snap, err := s.Snapshot(ctx, calls.SnapshotRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if head, _, _ := strings.Cut(snap.Text, "\n"); !strings.Contains(head, "[app: Greenhouse (applicant tracking, unverified)]") {
		t.Errorf("first line %q", head)
	}
	var f *calls.Form
	for range 2 { // read twice: the definition is asked for once
		if f, err = s.Form(ctx, calls.FormRequest{}); err != nil {
			t.Fatal(err)
		}
	}
	visa := formField(t, f, "visa_status")
	if f.ATS != "Greenhouse" || !visa.Required || !slices.Equal(visa.Options, []string{"Citizen", "Work permit", "Need sponsorship"}) || !formField(t, f, "first_name").Required {
		t.Errorf("ats %q visa %+v", f.ATS, visa)
	}
	if len(f.Questions) != 1 || f.Questions[0].Label != "LinkedIn Profile" {
		t.Errorf("questions %+v notes %q", f.Questions, f.Notes)
	}
	if got := seen(); len(got) != 1 || !strings.HasPrefix(got[0], "GET /v1/boards/acme/jobs/4012345?questions=true cookie= ") {
		t.Errorf("the API saw %q", got)
	}

	// A job the API does not know: the form as the page gives it, and why.
	open(t, s, ctx, site.URL+"/acme/jobs/999")
	if f, err = s.Form(ctx, calls.FormRequest{}); err != nil {
		t.Fatal(err)
	}
	if len(formField(t, f, "visa_status").Options) != 0 || len(f.Notes) != 1 || !strings.Contains(f.Notes[0], "answered 404") {
		t.Errorf("notes %q", f.Notes)
	}

	open(t, s, ctx, site.URL+"/blocked/jobs/1")
	if f, err = s.Form(ctx, calls.FormRequest{}); err != nil {
		t.Fatal(err)
	}
	if len(f.Notes) != 1 || !strings.Contains(f.Notes[0], "could not be read") || len(seen()) != 2 {
		t.Errorf("notes %q; the API saw %q", f.Notes, seen())
	}
	t.Logf("blocked: %s", f.Notes[0])

	open(t, s, ctx, site.URL+"/ocean/p-1/application")
	if f, err = s.Form(ctx, calls.FormRequest{}); err != nil {
		t.Fatal(err)
	}
	if f.ATS != "Ashby" || !formField(t, f, "name").Required || len(f.Questions) != 1 || !slices.Equal(f.Questions[0].Options, []string{"Day", "Night"}) {
		t.Errorf("ats %q questions %+v notes %q", f.ATS, f.Questions, f.Notes)
	}
	got := seen()
	if last := got[len(got)-1]; !strings.HasPrefix(last, "POST /api/non-user-graphql?op=ApiJobPosting cookie= ") || strings.Contains(last, "s3cr3t") {
		t.Errorf("the API saw %q", got)
	}
}
