package routine

import (
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// TestApprovedDiffers: a person's approval holds for the same action on
// the same control and path, with a form of the same fields whatever their
// values (a replay fills its own) and whatever the host and query; any
// other change is named.
func TestApprovedDiffers(t *testing.T) {
	pressed := calls.Approval{Action: "click", URL: "http://127.0.0.1:4000/checkout?step=2", Control: `button[type=submit] "Place order"`,
		Why: "submits the form", Form: map[string]string{"email": "ann@example.com", "name": "Ann"}, Token: "t"}
	ap := ApprovedOf(pressed)
	if ap.Path != "/checkout" || strings.Join(ap.Fields, ",") != "email,name" {
		t.Fatalf("approved %+v", ap)
	}
	for _, tt := range []struct {
		name string
		edit func(*calls.Approval)
		want string
	}{
		{"the same", func(*calls.Approval) {}, ""},
		{"other values, host and query", func(a *calls.Approval) {
			a.URL, a.Form = "https://shop.example/checkout", map[string]string{"email": "bob@example.com", "name": "Bob"}
		}, ""},
		{"another control", func(a *calls.Approval) { a.Control = `button "Delete account"` }, "the control is"},
		{"another page", func(a *calls.Approval) { a.URL = "http://127.0.0.1:4000/admin" }, "the page is /admin"},
		{"a field more", func(a *calls.Approval) { a.Form = map[string]string{"email": "", "name": "", "amount": "1000"} }, "the form changed: new fields amount"},
		{"a field fewer", func(a *calls.Approval) { a.Form = map[string]string{"email": ""} }, "no longer name"},
		{"a key instead", func(a *calls.Approval) { a.Action = "press Enter" }, "it would press Enter"},
		{"a request held", func(a *calls.Approval) { a.Sends = "POST http://127.0.0.1:4000/pay" }, "it sends POST /pay"},
		// The reasons are said as the person reads them, never "it its
		// words commit"; two older ones that read the same are quoted.
		{"another reason", func(a *calls.Approval) { a.Why = `its words commit: "Place order"` },
			"it is worded to send, pay, delete or confirm, not submits the form"},
		{"an older reason that reads the same", func(a *calls.Approval) { a.Why = "Enter on it submits the form" },
			`the reason is "Enter on it submits the form", not "submits the form"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			now := pressed
			now.Form = map[string]string{"email": "x", "name": "y"}
			tt.edit(&now)
			got := ap.Differs(now)
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("Differs = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestApprovedLoads: a routine with an approved step fits the schema and
// loads.
func TestApprovedLoads(t *testing.T) {
	r, err := Parse([]byte(`{"format":"waymark.routine/1","name":"t","version":1,"steps":[
	 {"kind":"act","op":"click","target":{"locator":"role=button[name=\"Place order\"]","fingerprint":{"role":"button","name":"Place order"}},
	  "approved":{"action":"click","path":"/checkout","control":"button[type=submit] \"Place order\"","why":"submits the form","fields":["email"]}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if a := r.Steps[0].Approved; a == nil || a.Path != "/checkout" || a.Fields[0] != "email" {
		t.Errorf("approved %+v", a)
	}
	if _, err := Parse([]byte(`{"format":"waymark.routine/1","name":"t","version":1,"steps":[
	 {"kind":"act","op":"click","target":{"locator":"x","fingerprint":{}},"approved":{"action":"click","path":"/","control":"c","why":"w","form":{"a":"b"}}}]}`)); err == nil {
		t.Error("an approval with the form's values loaded")
	}
}

// TestApprovedKeepsWhereTheFormGoes: what a person approved is also where
// the form goes (on the page's own origin whatever the host, or another
// origin exactly) and what it carries unseen (hidden and readonly values,
// but not a per-load token); a change to either is named.
func TestApprovedKeepsWhereTheFormGoes(t *testing.T) {
	pressed := calls.Approval{Action: "click", URL: "http://127.0.0.1:4000/checkout", Control: `button "Place order"`, Why: "submits the form",
		Form:   map[string]string{"email": "ann@example.com", "amount": "10", "to": "GB11", "csrf_token": "abc"},
		Target: "POST http://127.0.0.1:4000/order?cart=7#top", Fixed: []string{"amount", "to", "csrf_token"}, Token: "t"}
	ap := ApprovedOf(pressed)
	if ap.Target != "POST /order?cart=7" || ap.Fixed["amount"] != "10" || ap.Fixed["csrf_token"] != "*" || ap.Fixed["email"] != "" {
		t.Fatalf("approved %+v", ap)
	}
	// A form with no action posts to its page, whose query may change.
	self := ApprovedOf(calls.Approval{Action: "click", URL: "http://h/checkout?cart=1", Target: "POST http://h/checkout?cart=1"})
	if self.Target != "POST (the page itself)" || self.Differs(calls.Approval{Action: "click", URL: "https://h2/checkout?cart=2", Target: "POST https://h2/checkout?cart=2"}) != "" {
		t.Errorf("a form posting to its page: %+v", self)
	}
	if got := self.Differs(calls.Approval{Action: "click", URL: "http://h/checkout?cart=2", Target: "POST http://h/checkout?cart=1"}); !strings.Contains(got, "the form goes to POST /checkout?cart=1") {
		t.Errorf("a form posting to another cart than its page's: %q", got)
	}
	for _, tt := range []struct {
		name string
		edit func(*calls.Approval)
		want string
	}{
		{"another host, the same origin as the page", func(a *calls.Approval) {
			a.URL, a.Target = "https://shop.example/checkout", "POST https://shop.example/order?cart=7"
		}, ""},
		{"a new token, another email", func(a *calls.Approval) { a.Form["csrf_token"], a.Form["email"] = "zzz", "bo@example.com" }, ""},
		{"another origin", func(a *calls.Approval) { a.Target = "POST http://evil.test/order?cart=7" }, "the form goes to POST http://evil.test/order"},
		{"another path", func(a *calls.Approval) { a.Target = "POST http://127.0.0.1:4000/order-all?cart=7" }, "the form goes to POST /order-all"},
		{"another query", func(a *calls.Approval) { a.Target = "POST http://127.0.0.1:4000/order?cart=8" }, "the form goes to"},
		{"GET", func(a *calls.Approval) { a.Target = "GET http://127.0.0.1:4000/order?cart=7" }, "the form goes to GET"},
		{"no form", func(a *calls.Approval) { a.Target = "" }, "it sends a form to none, not POST /order?cart=7"},
		{"the amount", func(a *calls.Approval) { a.Form["amount"] = "10000" }, `the form's hidden amount is "10000", not "10"`},
		{"the recipient", func(a *calls.Approval) { a.Form["to"] = "GB99" }, "hidden to"},
		{"a hidden field more", func(a *calls.Approval) { a.Fixed = append(a.Fixed, "email") }, "a new hidden email"},
		{"a hidden field turned visible", func(a *calls.Approval) { a.Fixed = a.Fixed[1:] }, "no longer carries its hidden amount"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			now := pressed
			now.Form = map[string]string{"email": "x", "amount": "10", "to": "GB11", "csrf_token": "new"}
			now.Fixed = []string{"amount", "to", "csrf_token"}
			tt.edit(&now)
			got := ap.Differs(now)
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("Differs = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestApprovedToleratesCosmeticWords: a control whose words changed case,
// or changed words (another language) while its role and the send it makes
// stayed, is still the control the person approved; another send target,
// other hidden values, another role, an input whose words are its sent
// value, or a number in its words that changed is not.
func TestApprovedToleratesCosmeticWords(t *testing.T) {
	pressed := calls.Approval{Action: "click", URL: "http://127.0.0.1:4000/checkout", Control: `button[type=submit] "Place order"`,
		Why: "submits the form", Form: map[string]string{"amount": "10", "note": "hi"}, Fixed: []string{"amount"},
		Target: "POST http://127.0.0.1:4000/order", Token: "t"}
	words := calls.Approval{Action: "click", URL: "http://127.0.0.1:4000/cart", Control: `button "Pay now"`,
		Why: `its words commit: "Pay now"`, Token: "t"}
	held := calls.Approval{Action: "click", URL: "http://127.0.0.1:4000/cart", Control: `div "Continue"`,
		Why: "sends a xhr request: POST http://127.0.0.1:4000/pay", Sends: "POST http://127.0.0.1:4000/pay", Token: "t"}
	input := calls.Approval{Action: "click", URL: "http://127.0.0.1:4000/checkout", Control: `input[type=submit] "Place order"`,
		Why: "submits the form", Form: map[string]string{"note": "hi"}, Target: "POST http://127.0.0.1:4000/order", Token: "t"}
	for _, tt := range []struct {
		name string
		was  calls.Approval
		edit func(*calls.Approval)
		want string
	}{
		{"upper case", pressed, func(a *calls.Approval) { a.Control = `button[type=submit] "PLACE ORDER"` }, ""},
		{"another language", pressed, func(a *calls.Approval) { a.Control = `button[type=submit] "Zahlungspflichtig bestellen"` }, ""},
		{"other words, case of words-commit", words, func(a *calls.Approval) {
			a.Control, a.Why = `button "PAY NOW"`, `its words commit: "PAY NOW"`
		}, ""},
		{"other words and nothing sent to compare", words, func(a *calls.Approval) {
			a.Control, a.Why = `button "Delete account"`, `its words commit: "Delete account"`
		}, "the control is"},
		{"held send, other words", held, func(a *calls.Approval) { a.Control = `div "Weiter"` }, ""},
		{"held send, other words and another send", held, func(a *calls.Approval) {
			a.Control, a.Sends = `div "Weiter"`, "POST http://127.0.0.1:4000/delete"
		}, "the control is"},
		{"other words, another target", pressed, func(a *calls.Approval) {
			a.Control, a.Target = `button[type=submit] "Bestellen"`, "POST http://127.0.0.1:4000/order-all"
		}, "the control is"},
		{"same words, another target", pressed, func(a *calls.Approval) { a.Target = "POST http://127.0.0.1:4000/order-all" }, "the form goes to"},
		{"other words, another hidden amount", pressed, func(a *calls.Approval) {
			a.Control, a.Form = `button[type=submit] "Bestellen"`, map[string]string{"amount": "10000", "note": "hi"}
		}, `hidden amount is "10000"`},
		{"a number in the words", pressed, func(a *calls.Approval) { a.Control = `button[type=submit] "Place order ($10,000)"` }, "the control is"},
		{"another role", pressed, func(a *calls.Approval) { a.Control = `a "Place order"` }, "the control is"},
		{"an input's value is what it sends", input, func(a *calls.Approval) { a.Control = `input[type=submit] "Delete all"` }, "the control is"},
		{"an input's value in upper case", input, func(a *calls.Approval) { a.Control = `input[type=submit] "PLACE ORDER"` }, "the control is"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ap := ApprovedOf(tt.was)
			now := tt.was
			tt.edit(&now)
			got := ap.Differs(now)
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("Differs = %q, want %q", got, tt.want)
			}
		})
	}
}
