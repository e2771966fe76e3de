package driver_test

import (
	"context"
	_ "embed"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
)

//go:embed testdata/seatime.html
var seaTimePage string

// A section shown once with an "Add another …" beside it is a repeating
// section from its first copy, whatever holds it (here plain divs under a
// heading, and an icon button named by its aria-label): its fields are
// keyed by copy, and answers for later copies press the adder.
func TestFormRepeatsASectionFromItsOneCopy(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv, sends := countingServe(t, map[string]string{"/": seaTimePage})
	open(t, s, ctx, srv.URL)
	f, err := s.Form(ctx, calls.FormRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"full_name", "email", "sea_time[1].vessel", "sea_time[1].role", "sea_time[1].from", "sea_time[1].to", "languages[1].language", "languages[1].level"} {
		formField(t, f, k)
	}
	res, err := s.FillForm(ctx, calls.FormFillRequest{Answers: map[string]string{
		"full_name":          "Ann Lee",
		"sea_time[1].vessel": "Northern Star", "sea_time[1].role": "Deckhand",
		"sea_time[2].vessel": "Blue Heron", "sea_time[2].role": "Mate", "sea_time[2].from": "2021-04-01",
		"sea_time[3].vessel":    "Kittiwake",
		"languages[2].language": "French",
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range res.Fields {
		if x.Answered && !x.ReadBack {
			t.Errorf("%s: %+v", x.Key, x)
		}
	}
	got := evalString(t, s, ctx, `[...document.querySelectorAll('input[name="vessel[]"], select[name="role[]"], input[name="lang[]"]')].map(i => i.value).join('|')`)
	// In document order: vessel and role of each copy, then the languages.
	if want := "Northern Star|Deckhand|Blue Heron|Mate|Kittiwake|||French"; got != want {
		t.Errorf("page holds %q, want %q", got, want)
	}
	if len(res.Unmatched) != 0 || len(res.Stopped) != 0 || sent(sends) != 0 {
		t.Errorf("unmatched %v stopped %v sent %d", res.Unmatched, res.Stopped, sent(sends))
	}
}

// Answers for a copy the page will not add (it caps "Sea time" at three)
// end in a not_found that says so; no answer lands in another copy, and
// every other answer is in its field.
func TestFormRepeatPastThePagesCap(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv, sends := countingServe(t, map[string]string{"/": seaTimePage})
	open(t, s, ctx, srv.URL)
	res, err := s.FillForm(ctx, calls.FormFillRequest{Answers: map[string]string{
		"sea_time[1].vessel": "One", "sea_time[3].vessel": "Three", "sea_time[5].vessel": "Five", "sea_time[5].role": "Master",
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Unmatched, []string{"sea_time[5].role", "sea_time[5].vessel"}) {
		t.Fatalf("unmatched %v", res.Unmatched)
	}
	if e := res.Unplaced(); !errors.Is(e, calls.ErrNoMatch) {
		t.Errorf("unplaced: %v", e)
	}
	if !slices.ContainsFunc(res.NeedsPerson, func(n string) bool {
		return strings.Contains(n, "sea_time[5].vessel") && strings.Contains(n, "3 copies")
	}) {
		t.Errorf("needs person: %q", res.NeedsPerson)
	}
	got := evalString(t, s, ctx, `[...document.querySelectorAll('input[name="vessel[]"]')].map(i => i.value).join('|')`)
	if got != "One||Three" || sent(sends) != 0 {
		t.Errorf("page holds %q, sent %d", got, sent(sends))
	}
}

//go:embed testdata/repeats.html
var repeatsPage string

// Adders of other shapes: a link in German inside a titled section, a
// button with no type (it would send the form: never pressed, and the
// answer says so), and a page that draws its copies anew on every add
// (what an earlier fill typed there is lost, and the next fill says so);
// and one that is none (a coupon's "Add").
func TestFormRepeatAddersOfEveryShape(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv, sends := countingServe(t, map[string]string{"/": repeatsPage})
	open(t, s, ctx, srv.URL)
	fill := func(answers map[string]string) *calls.FormFillResult {
		t.Helper()
		res, err := s.FillForm(ctx, calls.FormFillRequest{Answers: answers})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	f, err := s.Form(ctx, calls.FormRequest{})
	if err != nil {
		t.Fatal(err)
	}
	// One field beside an "Add coupon" is no repeating section.
	for _, k := range []string{"referenzen[1].name", "children[1].child_s_name", "certificates[1].title", "coupon_code"} {
		formField(t, f, k)
	}
	res := fill(map[string]string{"referenzen[2].telefon": "+49 30 1234", "children[1].age": "7", "children[2].age": "9", "certificates[1].title": "STCW"})
	if !slices.Equal(res.Unmatched, []string{"children[2].age"}) || !needs(res, "children[2].age", "would send the form") {
		t.Errorf("unmatched %v needs %q", res.Unmatched, res.NeedsPerson)
	}
	if got := pageValues(t, s, ctx, "input"); got != "|||+49 30 1234||7|STCW||" {
		t.Errorf("page holds %q", got)
	}
	res = fill(map[string]string{"certificates[2].title": "GMDSS"})
	if len(res.Unmatched) != 0 || !needs(res, "certificates[1].title", "adding a copy changed") {
		t.Errorf("unmatched %v needs %q", res.Unmatched, res.NeedsPerson)
	}
	if got := pageValues(t, s, ctx, ".cert input"); got != "||GMDSS|" {
		t.Errorf("certificates hold %q", got)
	}
	if sent(sends) != 0 || len(res.Stopped) != 0 {
		t.Errorf("sent %d stopped %v", sent(sends), res.Stopped)
	}
}

// needs says a fill's needs_person has a line for key that says what.
func needs(res *calls.FormFillResult, key, what string) bool {
	return slices.ContainsFunc(res.NeedsPerson, func(n string) bool { return strings.HasPrefix(n, key+":") && strings.Contains(n, what) })
}

// pageValues is the values of the page's fields that match sel, in order.
func pageValues(t *testing.T, s *driver.Session, ctx context.Context, sel string) string {
	t.Helper()
	return evalString(t, s, ctx, "[...document.querySelectorAll('"+sel+"')].map(i => i.value).join('|')")
}

// adderAfterCopies has its adder in the form itself, right after the box
// of copies: the box just before it is the one it adds to.
const adderAfterCopies = `<!doctype html><title>Apply</title>
<form method=post action=/apply><p><label>Full name <input name=name></label></p>
<div id=copies><fieldset class=copy><legend>Reference</legend><p><label>Referee <input name="reference[0][referee]"></label></p>
<p><label>Relationship <input name="reference[0][relationship]"></label></p></fieldset></div>
<button type=button id=add>+ Add another</button><button>Send</button></form>
<script>document.getElementById('add').addEventListener('click', () => {
  const list = document.getElementById('copies'), n = list.children.length, copy = list.children[0].cloneNode(true);
  for (const i of copy.querySelectorAll('input')) { i.name = i.name.replace('[0]', '[' + n + ']'); i.value = ''; }
  list.append(copy);
});</script>`

func TestFormRepeatAdderAfterTheCopiesBox(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv, sends := countingServe(t, map[string]string{"/": adderAfterCopies})
	open(t, s, ctx, srv.URL)
	f, err := s.Form(ctx, calls.FormRequest{})
	if err != nil {
		t.Fatal(err)
	}
	formField(t, f, "reference[1].referee")
	res, err := s.FillForm(ctx, calls.FormFillRequest{Answers: map[string]string{"reference[1].referee": "Ann Lee", "reference[2].referee": "Bo Chan", "reference[2].relationship": "Captain"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Unmatched) != 0 {
		t.Errorf("unmatched %v needs %q", res.Unmatched, res.NeedsPerson)
	}
	if got := pageValues(t, s, ctx, "#copies input"); got != "Ann Lee||Bo Chan|Captain" {
		t.Errorf("copies hold %q", got)
	}
	if sent(sends) != 0 {
		t.Errorf("sent %d", sent(sends))
	}
}
