package driver_test

import (
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/secret"
)

// TestFormMasksCardDetailsAndNothingElse: a sign-up with payment; after
// filling, the read-back masks the card's number, expiry, security code
// and name on it, and shows everything else as it is: the box "I agree to
// the code of conduct" beside them (it read as ••••) and the plain fields.
func TestFormMasksCardDetailsAndNothingElse(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": `<!doctype html><title>Join</title><form>
<fieldset><legend>Payment</legend>
<label>Card number <input name=cc autocomplete=cc-number></label>
<label>Expiry <input name=exp autocomplete=cc-exp placeholder="MM/YY"></label>
<label>CVC <input name=cvc></label>
<label>Name on card <input name=holder></label>
<label><input type=checkbox name=coc> I agree to the code of conduct</label>
<label>Company <input name=company></label>
</fieldset></form>`})
	open(t, s, ctx, srv.URL)
	for target, value := range map[string]string{"label=Card number": "4242424242424242", "label=Expiry": "12/29", "label=CVC": "123",
		"label=Name on card": "Ann Lee", "label=Company": "Acme Ltd"} {
		act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: target, Value: value})
	}
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActCheck, Target: "label=I agree to the code of conduct"})
	f, err := s.Form(ctx, calls.FormRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, fl := range f.Fields {
		masked := fl.Value == secret.Masked || strings.Contains(fl.Value, "•")
		card := map[string]bool{"Card number": true, "Expiry": true, "CVC": true, "Name on card": true}[fl.Label]
		if masked != card {
			t.Errorf("%s (%s) reads %q: masked %v, want %v", fl.Label, fl.Key, fl.Value, masked, card)
		}
	}
}

// TestFormNamesAFieldAsTheOutlineDoes: a textarea with only a placeholder,
// under the page's heading, is keyed and labelled by its placeholder (the
// name the outline gives it), not by the heading above.
func TestFormNamesAFieldAsTheOutlineDoes(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": `<!doctype html><title>Sign up</title><h1>Sign up</h1><form>
<textarea name=bio placeholder="About you"></textarea>
<div class=row><h2>Contact</h2><input name=phone title="Phone number"></div>
<div>Company</div><div><input name=org></div>
</form>`})
	open(t, s, ctx, srv.URL)
	f, err := s.Form(ctx, calls.FormRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if fl := formField(t, f, "about_you"); fl.Label != "About you" {
		t.Errorf("the textarea is labelled %q", fl.Label)
	}
	if fl := formField(t, f, "phone_number"); fl.Label != "Phone number" {
		t.Errorf("the titled input is labelled %q", fl.Label)
	}
	if fl := formField(t, f, "company"); fl.Label != "Company" {
		t.Errorf("a caption before the field is no longer read: %q", fl.Label)
	}
	look, err := s.Snapshot(ctx, calls.SnapshotRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(look.Text, `textbox "About you"`) {
		t.Errorf("the outline names the textarea otherwise:\n%s", look.Text)
	}
}
