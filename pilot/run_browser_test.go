package pilot_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/demo"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/secret"
)

// outlineModel answers each turn from a script of functions of the page
// the model was shown: a scripted model that can name refs it cannot know
// ahead (Chromium assigns them), with brittle words beside them.
type outlineModel struct {
	t     *testing.T
	steps []func(outline string) string
	next  int
}

func (m *outlineModel) Next(ctx context.Context, turn pilot.Turn) (pilot.Reply, error) {
	if err := ctx.Err(); err != nil {
		return pilot.Reply{}, err
	}
	if m.next >= len(m.steps) {
		return pilot.Reply{}, fmt.Errorf("call %d is beyond the script", m.next+1)
	}
	s := m.steps[m.next]
	m.next++
	return pilot.Reply{Data: json.RawMessage(s(turn.Messages[0].Text)), Model: "outline"}, nil
}

// refOf finds the ref of the outline line that holds role and "name".
func refOf(t *testing.T, outline, role, name string) string {
	t.Helper()
	re := regexp.MustCompile(`- ` + role + ` "` + regexp.QuoteMeta(name) + `"[^\n]*\[ref=(e[0-9]+)\]`)
	m := re.FindStringSubmatch(outline)
	if m == nil {
		t.Errorf("no %s %q in\n%s", role, name, outline)
		return "e0"
	}
	return m[1]
}

func TestRunOnTheDemoSite(t *testing.T) {
	s, ctx := drivertest.Session(t, "run", 60*time.Second)
	srv := httptest.NewServer(demo.New(nil))
	defer srv.Close()

	m := &outlineModel{t: t, steps: []func(string) string{
		func(string) string {
			return fmt.Sprintf(`{"thought":"open the sign-in page","action":{"type":"act","op":"goto","url":%q,"expect":{"url_changes_to":"*/login"}}}`, srv.URL+"/login")
		},
		func(o string) string {
			return fmt.Sprintf(`{"thought":"the first input, css=form input:nth-of-type(1)","action":{"type":"act","op":"fill","ref":"@%s","value":"%%email%%","expect":{"field_value":{"ref":%q,"value":"%%email%%"}}}}`,
				refOf(t, o, "textbox", "Email"), refOf(t, o, "textbox", "Email"))
		},
		func(o string) string {
			ref := refOf(t, o, "textbox", "Password")
			return fmt.Sprintf(`{"thought":"the second input, xpath=//form/input[2]","action":{"type":"fill","ref":%q,"value":"%%password%%","expect":{"field_value":{"ref":%q,"value":"%%password%%"}}}}`, ref, ref)
		},
		func(o string) string {
			return fmt.Sprintf(`{"thought":"the blue button at the bottom, div.form > button","action":{"type":"act","op":"click","ref":%q,"expect":{"url_changes_to":"*/account"}}}`,
				refOf(t, o, "button", "Sign in"))
		},
		func(string) string {
			return `{"thought":"signed in","action":{"type":"done","expect":{"appears":{"role":"heading","name":"Your account"}}}}`
		},
	}}
	var ev events
	p := pilot.New(s, m, nil)
	res, err := p.Run(ctx, "Sign in to the demo shop", pilot.RunOptions{
		Inputs:      map[string]string{"email": demo.DemoEmail},
		Secrets:     map[string]secret.Value{"password": secret.New("password", demo.DemoPassword)},
		OnEvent:     ev.on,
		Record:      true,
		AllowSubmit: true,
	})
	if err != nil {
		t.Fatalf("run: %v\nevents: %s", err, ev.json(t))
	}
	rt := res.Routine
	if len(rt.Steps) != 5 {
		t.Fatalf("steps: %+v", rt.Steps)
	}
	wantLocators := map[int]string{1: "Email", 2: "Password", 3: "Sign in"}
	for i, name := range wantLocators {
		st := rt.Steps[i]
		if st.Target == nil || st.Target.Locator == "" || !strings.Contains(st.Target.Locator, name) || len(st.Target.Candidates) == 0 || st.Target.Fingerprint.Role == "" {
			t.Errorf("step %d has no locator from the page: %+v", i+1, st.Target)
		}
		if st.Verdict == nil || !st.Verdict.OK {
			t.Errorf("step %d: %+v", i+1, st.Verdict)
		}
	}
	if st := rt.Steps[0]; st.Kind != routine.KindGoto || st.Landed == nil || st.Landed.Path != "/login" {
		t.Errorf("goto %+v", st)
	}
	out, _ := json.Marshal(rt)
	for _, brittle := range []string{"nth-of-type", "xpath", "div.form", "[ref=", "@e", demo.DemoPassword} {
		if strings.Contains(string(out), brittle) {
			t.Errorf("the routine holds %q: %s", brittle, out)
		}
	}
	if strings.Contains(ev.json(t), demo.DemoPassword) {
		t.Errorf("an event holds the password")
	}
	t.Logf("routine: %s", out)
}
