package driver_test

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/secret"
)

//go:embed testdata/apply.html
var applyPage string

const referrerPage = `<!doctype html><title>Referrer</title><label>Referrer name <input name=referrer></label>`

// formField returns the field of a read by key, failing the test if there
// is none.
func formField(t *testing.T, f *calls.Form, key string) calls.FormField {
	t.Helper()
	for _, x := range f.Fields {
		if x.Key == key {
			return x
		}
	}
	var keys []string
	for _, x := range f.Fields {
		keys = append(keys, x.Key)
	}
	t.Fatalf("no field %q; keys: %s", key, strings.Join(keys, " "))
	return calls.FormField{}
}

func TestFormReadsEveryKind(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": applyPage, "/referrer": referrerPage})
	open(t, s, ctx, srv.URL)
	f, err := s.Form(ctx, calls.FormRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range f.Fields {
		t.Logf("%-28s %-9s %q=%q opts=%v req=%v fmt=%q err=%q frame=%q", x.Key, x.Kind, x.Label, x.Value, x.Options, x.Required, x.Format, x.Error, x.Frame)
	}
	if len(f.Errors) > 0 {
		t.Errorf("frame errors: %+v", f.Errors)
	}
	want := map[string]string{
		"first_name": "text", "email": "text", "date_of_birth": "date", "start_date": "date", "gender": "radio",
		"country": "select", "city": "typeahead", "cover_letter": "richtext", "bio": "textarea", "resume": "file",
		"portfolio": "file", "years_of_experience": "slider", "salary_k": "slider", "remote": "checkbox",
		"willing_to_relocate": "checkbox", "team": "combobox", "seniority": "combobox", "nickname": "text",
		"referrer_name": "text", "experience[1].company": "text", "experience[2].description": "textarea",
		"card_number": "text", "visa_status": "radio", "i_agree_to_the_terms": "checkbox",
	}
	for k, kind := range want {
		if kind == "" {
			continue
		}
		if got := formField(t, f, k); got.Kind != kind {
			t.Errorf("%s: kind %q, want %q", k, got.Kind, kind)
		}
	}
	if n := len(f.Fields); n < 55 {
		t.Errorf("%d fields, want the form's 60 (the State select is hidden)", n)
	}
}

// countingServe is serve that also counts the requests that send (any
// method but GET and HEAD) by path.
func countingServe(t *testing.T, pages map[string]string) (*httptest.Server, *sync.Map) {
	t.Helper()
	var sends sync.Map
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			n, _ := sends.LoadOrStore(r.URL.Path, new(atomic.Int32))
			n.(*atomic.Int32).Add(1)
		}
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
		body = strings.ReplaceAll(body, "{{other}}", "http://localhost:"+port)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv, &sends
}

func sent(m *sync.Map) int {
	total := 0
	m.Range(func(_, v any) bool { total += int(v.(*atomic.Int32).Load()); return true })
	return total
}

// applyAnswers are answers for every kind of field of apply.html.
func applyAnswers(t testing.TB) map[string]string {
	dir := t.TempDir()
	cv := filepath.Join(dir, "cv.pdf")
	folio := filepath.Join(dir, "folio.zip")
	for _, p := range []string{cv, folio} {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return map[string]string{
		"first_name": "Ann", "Last name": "Lee", "email": "ann@example.com", "phone": "+44 20 7946 0958",
		"date_of_birth": "12 April 1990", "start_date": "2027-03-01", "gender": "Female", "pronouns": "she/her",
		"available_from": "2027-02-15", "nickname": "Annie", "country": "United States", "state": "Texas",
		"city": "Springfield", "address_line_1": "1 Main St", "postcode": "12345",
		"cover_letter": "I would like to apply.", "bio": "Engineer.", "resume": cv, "portfolio": folio,
		"years_of_experience": "7", "salary_k": "65", "remote": "true", "willing_to_relocate": "yes",
		"team": "Platform", "seniority": "Senior", "notice_period": "1 month", "hours_per_week": "40",
		"experience[1].company": "Acme", "experience[1].title": "Engineer", "experience[2].company": "Globex",
		"experience[3].company": "Initech", "experience[3].title": "Lead",
		"degree": "MSc", "preferred_contact": "Email", "french": "true", "visa_status": "Work permit",
		"time_zone": "Europe/London", "i_agree_to_the_terms": "true", "referrer_name": "Bob",
		"favourite colour": "blue",
	}
}

func TestFormFillEveryKindNeverSubmits(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv, sends := countingServe(t, map[string]string{"/": applyPage, "/referrer": referrerPage})
	open(t, s, ctx, srv.URL)
	answers := applyAnswers(t)
	res, err := s.FillForm(ctx, calls.FormFillRequest{Answers: answers, Secrets: map[string]string{"card_number": "4242424242424242"}})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(res)
	if strings.Contains(string(out), "4242") {
		t.Errorf("the card number shows in the result: %s", out)
	}
	byKey := map[string]calls.FilledField{}
	for _, f := range res.Fields {
		byKey[f.Key] = f
		if f.Answered {
			t.Logf("%-26s %-9s tries=%d ok=%v %q → %q %s", f.Key, f.Kind, f.Tries, f.ReadBack, f.Before, f.After, f.Error)
		}
	}
	for k := range answers {
		if k == "favourite colour" {
			continue
		}
		f, ok := byKey[k]
		if !ok {
			for _, x := range res.Fields {
				if foldLabel(x.Label) == foldLabel(k) {
					f, ok = x, true
				}
			}
		}
		if !ok || !f.ReadBack {
			t.Errorf("%s: not filled and read back: %+v", k, f)
		}
	}
	if !slices.Equal(res.Unmatched, []string{"favourite colour"}) {
		t.Errorf("unmatched %v, want the answer with no field", res.Unmatched)
	}
	if f := byKey["available_from"]; f.Tries != 2 || f.After != "15/02/2027" {
		t.Errorf("available_from: %+v, want the second try in the page's format", f)
	}
	if f := byKey["city"]; f.After != "Springfield" {
		t.Errorf("city %q, want the exact option, not a longer one", f.After)
	}
	if got := evalString(t, s, ctx, `document.querySelector('.file-name').textContent`); got != "cv.pdf" {
		t.Errorf("the drop zone shows %q", got)
	}
	if n := sent(sends); n != 0 {
		t.Errorf("%d requests were sent while filling", n)
	}
	if info, _ := s.PageInfo(ctx); info.Title != "Apply" {
		t.Errorf("the page left: %q", info.Title)
	}
	// The card number is hidden in a read too.
	f, err := s.Form(ctx, calls.FormRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if c := formField(t, f, "card_number"); c.Value != secret.Masked {
		t.Errorf("card number shows %q", c.Value)
	}
}

func foldLabel(s string) string { return strings.ToLower(strings.ReplaceAll(s, " ", "_")) }

const selfSubmitPage = `<!doctype html><title>Quick apply</title>
<form method=post action="/apply">
<label>Name <input name=name></label>
<label>Plan <select name=plan onchange="this.form.submit()"><option>Basic</option><option>Pro</option></select></label>
<label>Size <select name=size onchange="this.form.requestSubmit()"><option>S</option><option>L</option></select></label>
<label>Note <input name=note oninput="fetch('/autosave', {method: 'POST', body: this.value})"></label>
<label>Card <input name=cardno></label>
<button>Send</button>
</form>`

func TestFormFillStopsThePagesOwnSubmits(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv, sends := countingServe(t, map[string]string{"/": selfSubmitPage})
	open(t, s, ctx, srv.URL)
	// The card number comes as a plain answer: hidden all the same.
	res, err := s.FillForm(ctx, calls.FormFillRequest{Answers: map[string]string{"name": "Ann", "plan": "Pro", "size": "L", "note": "hi", "card": "4242 4242 4242 4242"}})
	if err != nil {
		t.Fatal(err)
	}
	f, err := s.Form(ctx, calls.FormRequest{})
	if err != nil {
		t.Fatal(err)
	}
	review, err := s.FormReview(ctx, calls.FormReviewRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for what, v := range map[string]any{"fill": res, "read": f, "review": review, "snapshot": snapshot(t, s, ctx, calls.SnapshotRequest{})} {
		out, _ := json.Marshal(v)
		if strings.Contains(strings.ReplaceAll(string(out), " ", ""), "4242") {
			t.Errorf("the card number shows in the %s: %s", what, out)
		}
	}
	if n := sent(sends); n != 0 {
		t.Fatalf("%d requests reached the server", n)
	}
	if len(res.Stopped) < 2 {
		t.Errorf("stopped %v, want the submit on change, the requestSubmit and the autosave", res.Stopped)
	}
	for _, f := range res.Fields {
		if !f.ReadBack {
			t.Errorf("%s not read back: %+v", f.Key, f)
		}
	}
	if info, _ := s.PageInfo(ctx); info.Title != "Quick apply" || strings.Contains(info.URL, "/apply") {
		t.Errorf("the page was sent: %+v", info)
	}
	t.Logf("stopped: %v; needs a person: %v", res.Stopped, res.NeedsPerson)
}

const wizardPage = `<!doctype html><title>Sign up</title>
<form method=post action="/done">
<section id=one><h2>Step 1</h2>
<label>Name <input name=name></label><label>Card number <input name=card autocomplete=cc-number></label>
<button type=button onclick="one.hidden = true; two.hidden = false">Next</button></section>
<section id=two hidden><h2>Step 2</h2>
<label>City <input name=city></label><label>Plan <select name=plan><option>Basic</option><option>Pro</option></select></label>
<button type=button onclick="two.hidden = true; three.hidden = false">Review</button></section>
<section id=three hidden><h2>Step 3</h2><p>Check your answers.</p><button>Finish</button></section>
</form>`

func TestFormReviewShowsEveryStep(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv, sends := countingServe(t, map[string]string{"/": wizardPage})
	open(t, s, ctx, srv.URL)
	if _, err := s.FillForm(ctx, calls.FormFillRequest{Answers: map[string]string{"name": "Ann"}, Secrets: map[string]string{"card_number": "4242424242424242"}}); err != nil {
		t.Fatal(err)
	}
	// A correction by hand after the fill, then the next step: the
	// review has the page as it was left.
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: "label=Name", Value: "Ann Lee"})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: "text=Next"})
	// Step 2 filled by hand, never read with the form calls.
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: "label=City", Value: "Leeds"})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActSelect, Target: "label=Plan", Values: []string{"Pro"}})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: "text=Review"})
	r, err := s.FormReview(ctx, calls.FormReviewRequest{})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(r)
	if len(r.Pages) != 2 {
		t.Fatalf("%d pages, want the two steps: %s", len(r.Pages), out)
	}
	values := map[string]string{}
	for _, p := range r.Pages {
		for _, f := range p.Fields {
			values[f.Key] = f.Value
		}
	}
	want := map[string]string{"name": "Ann Lee", "card_number": secret.Masked, "city": "Leeds", "plan": "Pro"}
	for k, v := range want {
		if values[k] != v {
			t.Errorf("%s = %q, want %q", k, values[k], v)
		}
	}
	if strings.Contains(string(out), "4242") {
		t.Errorf("the card number shows in the review: %s", out)
	}
	if n := sent(sends); n != 0 {
		t.Errorf("%d requests were sent", n)
	}
}

// A ref a read gives is one to act on, and refuses a node the page turned
// into another control since.
func TestFormRefsAreRefs(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": `<!doctype html><title>R</title><label>Name <input name=name></label><label>City <input name=city></label>`})
	open(t, s, ctx, srv.URL)
	f, err := s.Form(ctx, calls.FormRequest{})
	if err != nil {
		t.Fatal(err)
	}
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: formField(t, f, "name").Ref, Value: "Ann"})
	if got := evalString(t, s, ctx, `document.querySelector('[name=name]').value`); got != "Ann" {
		t.Fatalf("name %q", got)
	}
	evalString(t, s, ctx, `document.querySelector('[name=city]').name = 'password'`)
	_, err = s.Act(ctx, calls.ActRequest{Kind: calls.ActFill, Target: formField(t, f, "city").Ref, Value: "x"})
	if !errors.Is(err, calls.ErrStaleRef) {
		t.Fatalf("a field whose name changed took the fill: %v", err)
	}
}

// A frame that cannot be read is named, and the rest is read: here a
// cross-site frame whose page is busy in a script that never ends.
func TestFormNamesAFrameItCannotRead(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv, told := countingServe(t, map[string]string{
		"/": `<!doctype html><title>Host</title><label>Name <input name=name></label><iframe src="{{other}}/busy"></iframe>`,
		// Told to, it says so to the server and spins in the same task:
		// once the server hears, the frame is busy.
		"/busy": `<!doctype html><label>Code <input name=code></label>
<script>onmessage = () => { fetch('/spinning', {method: 'POST'}); for (;;) {} }</script>`,
		"/spinning": "",
	})
	open(t, s, ctx, srv.URL)
	if _, err := s.Eval(ctx, calls.EvalRequest{Expression: `frames[0].postMessage('spin', '*')`, MainWorld: true}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); sent(told) == 0; {
		if time.Now().After(deadline) {
			t.Fatal("the frame never began to spin")
		}
		time.Sleep(20 * time.Millisecond)
	}
	start := time.Now()
	f, err := s.Form(ctx, calls.FormRequest{})
	if err != nil {
		t.Fatal(err)
	}
	formField(t, f, "name")
	if len(f.Errors) != 1 || !strings.Contains(f.Errors[0].Frame, "/busy") {
		t.Fatalf("errors %+v, want the busy frame named", f.Errors)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the read took %s", d)
	}
	t.Logf("%+v", f.Errors)
}

// Frames of one process are read at once on one session: each read's
// nodes are its own (a same-origin frame's read that ended first once
// released the page's nodes, and the page read as empty).
func TestFormReadsSameOriginFrames(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	var page strings.Builder
	page.WriteString(`<!doctype html><title>Many</title>`)
	for i := range 300 {
		fmt.Fprintf(&page, `<label>Field %d <input name=f%d></label>`, i, i)
	}
	for range 4 {
		page.WriteString(`<iframe src="/small"></iframe>`)
	}
	srv := serve(t, map[string]string{"/": page.String(), "/small": `<!doctype html><label>Small <input name=small></label>`})
	open(t, s, ctx, srv.URL)
	for i := range 5 {
		f, err := s.Form(ctx, calls.FormRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Fields) != 304 {
			t.Fatalf("read %d: %d fields, want 304", i+1, len(f.Fields))
		}
	}
}

// A select is answered by an option's words before its value.
func TestFormSelectByWordsThenValue(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": `<!doctype html><title>S</title>
<label>Rooms <select name=rooms><option value=2>One</option><option value=3>2</option><option value=fr>France</option></select></label>
<label>Land <select name=land><option value=de>Germany</option><option value=fr>France</option></select></label>`})
	open(t, s, ctx, srv.URL)
	res, err := s.FillForm(ctx, calls.FormFillRequest{Answers: map[string]string{"rooms": "2", "land": "fr"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Fields {
		if !f.ReadBack {
			t.Errorf("%s: %+v", f.Key, f)
		}
	}
	if got := evalString(t, s, ctx, `document.querySelector('[name=rooms]').value + ' ' + document.querySelector('[name=land]').value`); got != "3 fr" {
		t.Errorf("values %q, want the option saying 2 and the one whose value is fr", got)
	}
}

// What the page says is wrong with a field is read: its error text beside
// it, the message aria-describedby names, and a validity message once a
// person touched the field.
func TestFormReadsThePagesErrors(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": `<!doctype html><title>E</title><form>
<div><label>Email <input name=email aria-invalid=true aria-describedby=email-err value="ann@"></label><span id=email-err class=error>Enter a full email address</span></div>
<div><label>Zip <input name=zip value="x1"></label><div class=error>Digits only</div></div>
<div><label>Age <input name=age type=number min=18 required></label></div>
<div><label>Town <input name=town></label></div>
</form>`})
	open(t, s, ctx, srv.URL)
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: "label=Age", Value: "12"})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFocus, Target: "label=Town"})
	f, err := s.Form(ctx, calls.FormRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{"email": "Enter a full email address", "zip": "Digits only", "age": "18", "town": ""} {
		if got := formField(t, f, key).Error; want == "" && got != "" || !strings.Contains(got, want) {
			t.Errorf("%s: error %q, want %q", key, got, want)
		}
	}
	if formField(t, f, "email").Label != "Email" {
		t.Errorf("the error text got into the label: %q", formField(t, f, "email").Label)
	}
}

func TestFormFillDatalist(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": `<!doctype html><title>D</title>
<label>Browser <input name=browser list=browsers></label>
<datalist id=browsers><option value="Chromium"><option value="Firefox"><option value="Firefox Nightly"></datalist>`})
	open(t, s, ctx, srv.URL)
	res, err := s.FillForm(ctx, calls.FormFillRequest{Answers: map[string]string{"browser": "chrom"}})
	if err != nil {
		t.Fatal(err)
	}
	if f := res.Fields[0]; f.Kind != calls.FieldTypeahead || !f.ReadBack || f.After != "Chromium" {
		t.Fatalf("%+v", f)
	}
	res, err = s.FillForm(ctx, calls.FormFillRequest{Answers: map[string]string{"browser": "Fire"}})
	if err != nil {
		t.Fatal(err)
	}
	if f := res.Fields[0]; f.ReadBack || f.After != "Chromium" {
		t.Fatalf("two options start with the answer, and one was taken: %+v", f)
	}
}

// A line break in an answer is never typed as Enter: a text area takes it,
// a one-line field refuses the answer, and nothing is sent.
func TestFormFillLineBreaks(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv, sends := countingServe(t, map[string]string{"/": `<!doctype html><title>L</title><form method=post action=/x>
<label>City <input name=city role=combobox aria-autocomplete=list></label><label>Name <input name=name></label><label>Notes <textarea name=notes></textarea></label><button>Send</button></form>`})
	open(t, s, ctx, srv.URL)
	res, err := s.FillForm(ctx, calls.FormFillRequest{Answers: map[string]string{"city": "Leeds\n", "name": "Ann\nLee", "notes": "one\ntwo"}, Hand: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Fields {
		if (f.Key == "notes") != f.ReadBack {
			t.Errorf("%s: %+v", f.Key, f)
		}
	}
	if got := evalString(t, s, ctx, `document.querySelector('textarea').value`); got != `one\ntwo` {
		t.Errorf("notes %q", got)
	}
	if n := sent(sends); n != 0 || len(res.Stopped) != 0 {
		t.Errorf("%d sent, %v stopped: Enter was pressed", n, res.Stopped)
	}
}

// A box the page hides behind a styled one is set by a click on its label.
func TestFormFillStyledBoxes(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": `<!doctype html><title>B</title><style>
.switch input { display: none } .switch span { display: inline-block; width: 30px; height: 14px; background: #ccc }
.pill { position: relative } .pill input { position: absolute; opacity: 0; width: 1px; height: 1px } .pill i { display: inline-block; width: 40px; height: 20px; background: #ddd }
</style>
<label class=switch><input type=checkbox name=dark><span></span> Dark mode</label>
<fieldset><legend>Size</legend>
<label class=pill><input type=radio name=size value=s><i></i> Small</label><label class=pill><input type=radio name=size value=l><i></i> Large</label></fieldset>`})
	open(t, s, ctx, srv.URL)
	res, err := s.FillForm(ctx, calls.FormFillRequest{Answers: map[string]string{"dark_mode": "true", "size": "Large"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Fields {
		if !f.ReadBack {
			t.Errorf("%s: %+v", f.Key, f)
		}
	}
	if got := evalString(t, s, ctx, `document.querySelector('[name=dark]').checked + ' ' + document.querySelector('[value=l]').checked`); got != "true true" {
		t.Errorf("checked: %s", got)
	}
}

//go:embed testdata/calendar.html
var calendarPage string

// A date field that takes no typing is picked on its calendar: by the
// date a day says, or by its number under the month shown.
func TestFormFillPicksOnACalendar(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv, sends := countingServe(t, map[string]string{"/": calendarPage})
	open(t, s, ctx, srv.URL)
	res, err := s.FillForm(ctx, calls.FormFillRequest{Answers: map[string]string{"interview_date": "5 March 2027", "start_day": "2026-11-30"}})
	if err != nil {
		t.Fatal(err)
	}
	after := map[string]string{}
	for _, f := range res.Fields {
		after[f.Key] = f.After
		if f.Kind != calls.FieldDate || !f.ReadBack {
			t.Errorf("%s: %+v", f.Key, f)
		}
	}
	if after["interview_date"] != "05/03/2027" || after["start_day"] != "30/11/2026" {
		t.Errorf("after %v", after)
	}
	if n := sent(sends); n != 0 {
		t.Errorf("%d sent", n)
	}
}

// "Add another" is pressed only when it adds: a submit button that says
// so is never pressed, and the answer for the copy it would add is told.
func TestFormFillNeverPressesASubmittingAdder(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv, sends := countingServe(t, map[string]string{"/": `<!doctype html><title>A</title><form method=post action=/x>
<fieldset><legend>Child 1</legend><label>Name <input name=c1></label></fieldset>
<fieldset><legend>Child 2</legend><label>Name <input name=c2></label></fieldset>
<button>Add another child</button></form>`})
	open(t, s, ctx, srv.URL)
	res, err := s.FillForm(ctx, calls.FormFillRequest{Answers: map[string]string{"child[1].name": "Ann", "child[3].name": "Cy"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Unmatched, []string{"child[3].name"}) || len(res.Stopped) != 0 || sent(sends) != 0 {
		t.Fatalf("unmatched %v stopped %v sent %d", res.Unmatched, res.Stopped, sent(sends))
	}
}

// A list built on a <button> with no type (a submit button) is opened with
// the down arrow, never a click that would send the form.
func TestFormFillOpensASubmitButtonListWithKeys(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv, sends := countingServe(t, map[string]string{"/": `<!doctype html><title>K</title><form method=post action=/x>
<span id=l>Colour</span> <button aria-haspopup=listbox aria-labelledby=l aria-controls=list id=b>Pick</button>
<ul id=list role=listbox hidden><li role=option>Red</li><li role=option>Green</li></ul></form>
<script>
const b = document.getElementById('b'), list = document.getElementById('list');
b.addEventListener('keydown', e => { if (e.key === 'ArrowDown') { e.preventDefault(); list.hidden = false } });
b.addEventListener('click', () => { list.hidden = false });
for (const o of list.children) o.addEventListener('click', () => { b.textContent = o.textContent; list.hidden = true });
</script>`})
	open(t, s, ctx, srv.URL)
	res, err := s.FillForm(ctx, calls.FormFillRequest{Answers: map[string]string{"colour": "Green"}})
	if err != nil {
		t.Fatal(err)
	}
	if f := res.Fields[0]; !f.ReadBack || f.After != "Green" || len(res.Stopped) != 0 || sent(sends) != 0 {
		t.Fatalf("%+v stopped %v sent %d", f, res.Stopped, sent(sends))
	}
}
