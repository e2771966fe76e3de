package driver_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

const formPage = `<!doctype html><title>Form</title>
<h1>Checkout</h1>
<form onsubmit="event.preventDefault(); document.getElementById('out').textContent = 'sent ' + new FormData(this).get('email')">
<label for=email>Email</label><input id=email name=email>
<label>Notes <textarea name=notes>old</textarea></label>
<label for=country>Country</label><select id=country name=country><option value=fr>France</option><option value=uk>United Kingdom</option></select>
<label><input type=checkbox name=terms> I agree</label>
<label for=when>When</label><input id=when type=date name=when>
<input type=file id=file aria-label="Attachment" multiple>
<button type=submit>Send</button>
</form>
<p id=out></p>
<button id=count onclick="this.textContent = 'Clicked ' + (++window.n || (window.n = 1))">Count</button>`

func TestSnapshotShowsRolesNamesAndRefs(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": formPage})
	open(t, s, ctx, srv.URL)
	out := snapshot(t, s, ctx, calls.SnapshotRequest{})
	for _, want := range []string{`heading "Checkout"`, `textbox "Email"`, `combobox "Country"`, `checkbox "I agree"`, `button "Send"`} {
		if !strings.Contains(out, want) {
			t.Errorf("outline lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, `heading "Checkout" [ref=`) {
		t.Errorf("a heading got a ref; text is read, not pressed:\n%s", out)
	}
}

func TestRefsAreStableAcrossSnapshots(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": formPage})
	open(t, s, ctx, srv.URL)
	first := refOf(t, snapshot(t, s, ctx, calls.SnapshotRequest{}), `button "Send"`)
	// Change the page around the button; the button is the same element.
	evalString(t, s, ctx, `document.body.insertAdjacentHTML('afterbegin', '<a href="#x">New link</a>'); 'ok'`)
	second := refOf(t, snapshot(t, s, ctx, calls.SnapshotRequest{}), `button "Send"`)
	if first != second {
		t.Fatalf("the Send button's ref changed from %s to %s", first, second)
	}
}

func TestClickFillSelectCheckAndSubmit(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": formPage})
	open(t, s, ctx, srv.URL)
	out := snapshot(t, s, ctx, calls.SnapshotRequest{Interactive: true})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: "@" + refOf(t, out, `textbox "Email"`), Value: "ann@example.com"})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: "label=Notes", Value: "new notes"})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActType, Target: "label=Notes", Value: " and more"})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActSelect, Target: refOf(t, out, `combobox "Country"`), Values: []string{"United Kingdom"}})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActCheck, Target: refOf(t, out, `checkbox "I agree"`)})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: "label=When", Value: "2026-12-24"})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: `role=button[name="Send"]`})

	checks := map[string]string{
		`document.getElementById('out').textContent`:             "sent ann@example.com",
		`document.querySelector('textarea').value`:               "new notes and more",
		`document.getElementById('country').value`:               "uk",
		`String(document.querySelector('[name=terms]').checked)`: "true",
		`document.getElementById('when').value`:                  "2026-12-24",
	}
	for expr, want := range checks {
		if got := evalString(t, s, ctx, expr); got != want {
			t.Errorf("%s = %q, want %q", expr, got, want)
		}
	}
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActUncheck, Target: "label=I agree"})
	if got := evalString(t, s, ctx, `String(document.querySelector('[name=terms]').checked)`); got != "false" {
		t.Errorf("after uncheck, checked = %s", got)
	}
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#count", Count: 2})
	if got := getText(t, s, ctx, "css=#count"); got != "Clicked 2" {
		t.Errorf("after a click with count 2: %q", got)
	}
}

func TestPressKeys(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": formPage})
	open(t, s, ctx, srv.URL)
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: "label=Email", Value: "x@example.com"})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActPress, Key: "Control+A"})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActPress, Key: "Backspace"})
	if got := evalString(t, s, ctx, `document.getElementById('email').value`); got != "" {
		t.Errorf("after Control+A, Backspace the field holds %q", got)
	}
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActType, Target: "label=Email", Value: "bo@example.com"})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActPress, Target: "label=Email", Key: "Enter"})
	if got := evalString(t, s, ctx, `document.getElementById('out').textContent`); got != "sent bo@example.com" {
		t.Errorf("Enter in the field did not submit: %q", got)
	}
	_, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActPress, Key: "Entr"})
	if !errors.Is(err, calls.ErrBadInput) || !strings.Contains(err.Error(), "Enter") {
		t.Errorf("an unknown key: %v, want bad input suggesting Enter", err)
	}
}

func TestUpload(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": formPage})
	open(t, s, ctx, srv.URL)
	dir := t.TempDir()
	f := filepath.Join(dir, "invoice.txt")
	if err := os.WriteFile(f, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActUpload, Target: "css=#file", Files: []string{f}})
	if got := evalString(t, s, ctx, `document.getElementById('file').files[0].name`); got != "invoice.txt" {
		t.Errorf("uploaded file name %q", got)
	}
	_, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActUpload, Target: "css=#file", Files: []string{filepath.Join(dir, "missing.txt")}})
	if !errors.Is(err, calls.ErrBadInput) {
		t.Errorf("a missing upload file: %v, want bad input", err)
	}
}

func TestSnapshotChangesSinceTheLastLook(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": formPage})
	open(t, s, ctx, srv.URL)
	req := calls.SnapshotRequest{Interactive: true, Full: true, Changes: true}
	first, err := s.Snapshot(ctx, req)
	if err != nil || first.Changed {
		t.Fatalf("the first look: %+v %v", first, err)
	}
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#count"})
	second, err := s.Snapshot(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	// The button kept its ref and changed its name: said once, as changed,
	// without its old line.
	if !second.Changed || !strings.Contains(second.Text, `~ button "Clicked 1"`) || strings.Contains(second.Text, `"Count"`) ||
		strings.Contains(second.Text, `textbox "Email"`) || strings.Contains(second.Text, "[page]") {
		t.Fatalf("the second look does not carry just the changes:\n%s", second.Text)
	}
	third, _ := s.Snapshot(ctx, req)
	if !third.Changed || !strings.Contains(third.Text, "no changes") {
		t.Fatalf("an unchanged page:\n%s", third.Text)
	}
}
