package driver_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// The text of a field is empty whatever is typed in it: the read says
// where the value is, and keeps the text as it is.
func TestGetTextOfFieldNamesGetValue(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": `<!doctype html><label>City <input id=c></label><label>About <textarea id=a></textarea></label><p id=p>Hello</p>`})
	open(t, s, ctx, srv.URL)
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: "css=#c", Value: "Oslo"})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: "css=#a", Value: "Hi there"})
	for _, target := range []string{"css=#c", "css=#a"} {
		got, err := s.Get(ctx, calls.GetRequest{What: "text", Target: target})
		if err != nil {
			t.Fatal(err)
		}
		if got.Value != "" || !strings.Contains(got.Note, `"waymark get value `+target+`"`) {
			t.Fatalf("get text %s = %+v", target, got)
		}
	}
	if got, _ := s.Get(ctx, calls.GetRequest{What: "value", Target: "css=#c"}); got == nil || got.Value != "Oslo" {
		t.Fatalf("get value = %+v", got)
	}
	if got, _ := s.Get(ctx, calls.GetRequest{What: "text", Target: "css=#p"}); got == nil || got.Value != "Hello" || got.Note != "" {
		t.Fatalf("get text of a paragraph = %+v", got)
	}
}

// A checkbox or radio holds no typed text: get text does not send the
// reader to get value (which gives the value the box sends, checked or
// not: "standard" for an unchecked radio read as if it were chosen), and
// get value says where its state shows.
func TestGetOfCheckboxSaysWhereCheckedShows(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": `<!doctype html><label><input type=radio name=ship value=standard id=r> Standard</label><label><input type=checkbox value=yes id=c> Terms</label>`})
	open(t, s, ctx, srv.URL)
	for _, target := range []string{"css=#r", "css=#c"} {
		got, err := s.Get(ctx, calls.GetRequest{What: "text", Target: target})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(got.Note, "get value") || !strings.Contains(got.Note, "[checked]") {
			t.Errorf("get text %s = %+v", target, got)
		}
		got, err = s.Get(ctx, calls.GetRequest{What: "value", Target: target})
		if err != nil {
			t.Fatal(err)
		}
		if got.Value == "" || !strings.Contains(got.Note, "[checked]") {
			t.Errorf("get value %s = %+v", target, got)
		}
	}
}

// A fill some answers found no field for says which (an error a front
// exits with), and what it filled stays filled in a session still usable.
func TestFillFormUnplacedAnswers(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": `<!doctype html><form><label>Full name <input name=name></label><label>Email <input name=email type=email></label></form>`})
	open(t, s, ctx, srv.URL)
	res, err := s.FillForm(ctx, calls.FormFillRequest{Answers: map[string]string{"Full name": "Ann Lee", "Shoe size": "38", "email": "ann@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	uerr := res.Unplaced()
	if !errors.Is(uerr, calls.ErrNoMatch) || !strings.Contains(uerr.Error(), "1 answer found no field: Shoe size") {
		t.Fatalf("unplaced: %v (unmatched %v)", uerr, res.Unmatched)
	}
	if got := evalString(t, s, ctx, `document.querySelector('[name=name]').value + '|' + document.querySelector('[name=email]').value`); got != "Ann Lee|ann@example.com" {
		t.Fatalf("the filled fields hold %q", got)
	}
	// Usable: another fill goes through, and all its answers are placed.
	res, err = s.FillForm(ctx, calls.FormFillRequest{Answers: map[string]string{"email": "bo@example.com"}})
	if err != nil || res.Unplaced() != nil {
		t.Fatalf("second fill: %v %v", err, res.Unplaced())
	}
}
