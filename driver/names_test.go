package driver_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

const typedPage = `<!doctype html><title>Typed</title>
<p>Birthday <input type=date id=d></p>
<label>Alarm <input type=time id=t></label>
<label>Meeting <input type=datetime-local id=dt></label>
<label>Card expiry <input type=month id=m></label>
<label>Sprint <input type=week id=w></label>
<label>Colour <input type=color id=c></label>`

// TestFillWrittenDates fills date and time fields with the forms people
// write, and reads back the field's own form; the outline says each
// field's type beforehand, and a date that could mean two days is refused
// with the form the field needs.
func TestFillWrittenDates(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": typedPage})
	open(t, s, ctx, srv.URL)
	out := snapshot(t, s, ctx, calls.SnapshotRequest{Interactive: true})
	for _, want := range []string{`textbox ~"Birthday" [type=date]`, `textbox "Alarm" [type=time]`, `textbox "Meeting" [type=datetime-local]`,
		`textbox "Card expiry" [type=month]`, `textbox "Sprint" [type=week]`, `button "Colour" [type=color]`} {
		if !strings.Contains(out, want) {
			t.Errorf("outline lacks %s:\n%s", want, out)
		}
	}
	for _, tc := range []struct{ id, value, want string }{
		{"d", "06/24/2012", "2012-06-24"},
		{"d", "24 June 2012", "2012-06-24"},
		{"d", "2012-06-24", "2012-06-24"},
		{"d", "June 24, 2012", "2012-06-24"},
		{"t", "3:30 PM", "15:30"},
		{"dt", "06/24/2012 3:30 pm", "2012-06-24T15:30"},
		{"m", "June 2012", "2012-06"},
		{"w", "week 25 2012", "2012-W25"},
		{"c", "#F80", "#ff8800"},
	} {
		act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: "css=#" + tc.id, Value: tc.value})
		if got := evalString(t, s, ctx, `document.getElementById('`+tc.id+`').value`); got != tc.want {
			t.Errorf("fill #%s with %q: value %q, want %q", tc.id, tc.value, got, tc.want)
		}
	}
	_, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActFill, Target: "css=#d", Value: "03/04/2012"})
	if !errors.Is(err, calls.ErrBadInput) || !strings.Contains(calls.Hint(err), "YYYY-MM-DD") {
		t.Errorf("an ambiguous date: err %v, hint %q; want bad input with the format", err, calls.Hint(err))
	}
	if got := evalString(t, s, ctx, `document.getElementById('d').value`); got != "2012-06-24" {
		t.Errorf("a refused fill changed the field to %q", got)
	}
}

const namesPage = `<!doctype html><title>Names</title>
<style>.menu li { cursor: pointer; } .menu:empty { display: none; }</style>
<table><tr><td>Username</td><td><input id=user></td></tr></table>
<div><span>Company</span> <input id=company></div>
<input id=city placeholder=City>
<button id=star class="icon-star" onclick="this.dataset.on = 'yes'; document.getElementById('out').textContent = 'starred'"></button>
<button id=close onclick="document.getElementById('out').textContent = 'closed'"><svg width=16 height=16 aria-hidden=true><use href="#icon-close"></use></svg></button>
<label>Fruit <input id=fruit autocomplete=off></label>
<ul class=menu id=fruits></ul>
<p id=out></p>
<script>
  const fruit = document.getElementById('fruit'), menu = document.getElementById('fruits');
  fruit.addEventListener('input', () => menu.replaceChildren(...['Apple', 'Apricot', 'Avocado']
    .filter(f => fruit.value && f.toLowerCase().startsWith(fruit.value.toLowerCase()))
    .map(f => { const li = document.createElement('li'); li.textContent = f; return li; })));
  // One listener on the menu, as script-built menus have: the items have none.
  menu.addEventListener('click', e => { fruit.value = e.target.textContent; menu.replaceChildren(); });
</script>`

// TestUnnamedControlsGetNamesAndRefs: fields named only by the text beside
// them and icon buttons show the name a person reads (~"…"), and the items
// of a menu built by script get refs that a click takes.
func TestUnnamedControlsGetNamesAndRefs(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": namesPage})
	open(t, s, ctx, srv.URL)
	out := snapshot(t, s, ctx, calls.SnapshotRequest{})
	for _, want := range []string{`textbox ~"Username"`, `textbox ~"Company"`, `textbox "City"`, `button ~"star"`, `button ~"close"`} {
		if !strings.Contains(out, want) {
			t.Errorf("outline lacks %s:\n%s", want, out)
		}
	}
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: "@" + refOf(t, out, `textbox ~"Username"`), Value: "ann"})
	if got := evalString(t, s, ctx, `document.getElementById('user').value`); got != "ann" {
		t.Errorf("Username holds %q", got)
	}
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: "@" + refOf(t, out, `button ~"star"`)})
	if got := getText(t, s, ctx, "css=#out"); got != "starred" {
		t.Errorf("after clicking the star: %q", got)
	}

	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: "css=#fruit", Value: "ap"})
	out = snapshot(t, s, ctx, calls.SnapshotRequest{Interactive: true})
	if strings.Contains(out, `"Avocado"`) {
		t.Errorf("the menu holds an item it filtered out:\n%s", out)
	}
	refOf(t, out, `clickable "Apple"`)
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: "@" + refOf(t, out, `clickable "Apricot"`)})
	if got := evalString(t, s, ctx, `document.getElementById('fruit').value`); got != "Apricot" {
		t.Errorf("after clicking the menu's Apricot, the field holds %q", got)
	}
}
