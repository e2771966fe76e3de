package pilot_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/model/rules"
	"github.com/waymark-dev/waymark/pilot"
)

const unlabeledPage = `<!doctype html><title>Sign up</title>
<table><tr><td>Username</td><td><input id=user></td></tr></table>
<p>Birthday <input type=date id=bday></p>
<button class="fa fa-star" id=star onclick="document.getElementById('out').textContent = 'starred'"></button>
<p id=out></p>`

// TestRulesModelNamesWhatAPersonReads: with the rules model, instructions
// name fields by the text beside them and icon buttons by their icon, on a
// page that names none of them; a date is written as a person writes it.
func TestRulesModelNamesWhatAPersonReads(t *testing.T) {
	s, ctx := drivertest.Session(t, "names", 60*time.Second)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(unlabeledPage))
	}))
	defer srv.Close()
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL}); err != nil {
		t.Fatal(err)
	}
	p := pilot.New(s, rules.New(), nil)
	// The page's one text field, named by no label: its role alone says it.
	one := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><title>One</title><table><tr><td>Username</td><td><input id=u></td></tr></table>`))
	}))
	defer one.Close()
	if _, err := s.Open(ctx, calls.OpenRequest{URL: one.URL}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Act(ctx, "fill the text field with abc", &pilot.ActOptions{NoHand: true}); err != nil {
		t.Fatalf("act: %v", err)
	}
	if res, err := s.Eval(ctx, calls.EvalRequest{Expression: `document.getElementById('u').value`}); err != nil || string(res.Value) != `"abc"` {
		t.Fatalf("the one field holds %s (%v)", res.Value, err)
	}
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL}); err != nil {
		t.Fatal(err)
	}
	for _, instruction := range []string{"fill the Username field with abc", "fill Birthday with 06/24/2012", "click the star button"} {
		if _, err := p.Act(ctx, instruction, &pilot.ActOptions{NoHand: true}); err != nil {
			t.Fatalf("act %q: %v", instruction, err)
		}
	}
	for expr, want := range map[string]string{
		`document.getElementById('user').value`:      "abc",
		`document.getElementById('bday').value`:      "2012-06-24",
		`document.getElementById('out').textContent`: "starred",
	} {
		res, err := s.Eval(ctx, calls.EvalRequest{Expression: expr})
		if err != nil {
			t.Fatal(err)
		}
		if got := string(res.Value); got != `"`+want+`"` {
			t.Errorf("%s = %s, want %q", expr, got, want)
		}
	}
}
