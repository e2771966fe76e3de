package pilot_test

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/waymark-dev/waymark/model/scripted"
	"github.com/waymark-dev/waymark/pilot"
)

// TestRunRecordsASignInPage: a goto that lands on a sign-in page says so,
// so that a replay does not stop there as at a sign-in wall.
func TestRunRecordsASignInPage(t *testing.T) {
	for _, tc := range []struct {
		url    string
		signIn bool
	}{
		{loginURL, true},
		{homeURL, false},
	} {
		t.Run(tc.url, func(t *testing.T) {
			s := newSite()
			m := scripted.New(
				decide(`{"thought":"open it","action":{"type":"act","op":"goto","url":"`+tc.url+`"}}`),
				decide(`{"thought":"there","action":{"type":"done"}}`),
			)
			var ev events
			res, err := pilot.New(s, m, nil).Run(context.Background(), "Open a page", runOpts(&ev))
			if err != nil {
				t.Fatalf("run: %v\n%s", err, ev.json(t))
			}
			st := res.Routine.Steps[0]
			if st.Landed == nil || st.Landed.SignIn != tc.signIn {
				t.Errorf("landed %+v, want sign_in %v", st.Landed, tc.signIn)
			}
		})
	}
}

// TestRunRecordsTheThoughtAsInstruction: each act step keeps the words it
// came from, for a heal at replay: on one line, masked, with refs named as
// the page names them and the model's selectors left out.
func TestRunRecordsTheThoughtAsInstruction(t *testing.T) {
	long := strings.Repeat("very ", 100)
	s := newSite()
	m := scripted.New(
		decide(`{"thought":"open the sign-in page","action":{"type":"act","op":"goto","url":"https://shop.test/login","expect":{"url_changes_to":"*/login"}}}`),
		decide(`{"thought":"type the email\ninto [ref=e3]","action":{"type":"act","op":"fill","ref":"e3","value":"%email%","expect":{"field_value":{"ref":"e3","value":"%email%"}}}}`),
		decide(`{"thought":"type `+password+` into @e4, the password field","action":{"type":"act","op":"fill","ref":"e4","value":"%password%","expect":{"field_value":{"ref":"e4","value":"%password%"}}}}`),
		decide(`{"thought":"press the `+long+`blue button, css=form > button.btn-primary:nth-child(3)","action":{"type":"act","op":"click","ref":"e5","expect":{"url_changes_to":"*/account"}}}`),
		decide(`{"thought":"signed in","action":{"type":"done","expect":{"text_appears":"Welcome, Ann"}}}`),
	)
	var ev events
	res, err := pilot.New(s, m, nil).Run(context.Background(), "Sign in to the shop", runOpts(&ev))
	if err != nil {
		t.Fatalf("run: %v\n%s", err, ev.json(t))
	}
	steps := res.Routine.Steps
	if got := steps[0].Instruction; got != "" {
		t.Errorf("goto instruction %q", got)
	}
	if got, want := steps[1].Instruction, `type the email into textbox "Email"`; got != want {
		t.Errorf("fill instruction %q, want %q", got, want)
	}
	if got, want := steps[2].Instruction, `type «secret:password» into textbox "Password", the password field`; got != want {
		t.Errorf("password instruction %q, want %q", got, want)
	}
	click := steps[3].Instruction
	if !strings.HasPrefix(click, "press the very") || strings.ContainsAny(click, "\n>") || strings.Contains(click, "btn-primary") ||
		utf8.RuneCountInString(click) > 300 {
		t.Errorf("click instruction %q", click)
	}
}

// TestRunHandIsOnByDefault: the loop's page actions, the typing of a
// person's answer among them, go at a person's pace unless NoHand.
func TestRunHandIsOnByDefault(t *testing.T) {
	for _, noHand := range []bool{false, true} {
		s := newSite()
		s.cur = loginURL
		m := scripted.New(
			decide(`{"thought":"I need the code","action":{"type":"need_input","ref":"e4","field":"Password"}}`),
			decide(`{"thought":"now the email","action":{"type":"act","op":"fill","ref":"e3","value":"%email%","expect":{"field_value":{"ref":"e3","value":"%email%"}}}}`),
			decide(`{"thought":"sign in","action":{"type":"act","op":"click","ref":"e5","expect":{"url_changes_to":"*/account"}}}`),
			decide(`{"thought":"done","action":{"type":"done"}}`),
		)
		var ev events
		o := runOpts(&ev)
		o.Secrets = nil
		o.NoHand = noHand
		o.Ask = func(context.Context, pilot.AskRequest) (string, error) { return "s3cr3t-Answer-Value", nil }
		if _, err := pilot.New(s, m, nil).Run(context.Background(), "Sign in", o); err != nil {
			t.Fatalf("NoHand %v: run: %v\n%s", noHand, err, ev.json(t))
		}
		if len(s.acts) != 3 {
			t.Fatalf("NoHand %v: %d acts", noHand, len(s.acts))
		}
		for i, a := range s.acts {
			if a.Hand == noHand {
				t.Errorf("NoHand %v: act %d (%s) has Hand %v", noHand, i+1, a.Kind, a.Hand)
			}
		}
	}
}
