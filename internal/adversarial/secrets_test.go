package adversarial

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/secret"
)

// Secrets, attacked: pages that echo a secret back, spread it over several
// boxes, refuse it in a way that quotes it, or carry credentials in their
// URL. Each case drives the pilot with a scripted model the harness logs,
// and asserts that no prompt, no act result and no error holds the secret
// (issue 12, "Secrets"). The cases that need the binary or a daemon of
// their own live beside the code: cmd/waymark TestRecordActSecret (record
// by hand with act --secret), internal/daemon/client TestAutoStartScrubsEnv
// and driver TestBrowserEnvScrubbed (the environment), internal/daemon
// TestLogRedacted (the daemon's log).

// steps is a scripted model for pages whose refs the script cannot know
// ahead: each answer is a function of the outline the model was shown.
type steps struct {
	mu   sync.Mutex
	next []func(outline string) string
}

func (s *steps) Next(ctx context.Context, turn pilot.Turn) (pilot.Reply, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.next) == 0 {
		return pilot.Reply{}, errors.New("the script has no more steps")
	}
	f := s.next[0]
	s.next = s.next[1:]
	return pilot.Reply{Data: json.RawMessage(f(turn.Messages[0].Text)), Model: "steps"}, nil
}

// on answers with action on the element of the outline line holding
// words, with value when given.
func on(action, value string, words ...string) func(string) string {
	return func(outline string) string {
		ref := "e0"
		for _, line := range strings.Split(outline, "\n") {
			all := true
			for _, w := range words {
				all = all && strings.Contains(line, w)
			}
			if m := regexp.MustCompile(`\[ref=(e[0-9]+)\]`).FindStringSubmatch(line); all && m != nil {
				ref = m[1]
				break
			}
		}
		a, _ := json.Marshal(map[string]string{"action": action, "ref": ref, "value": value})
		return string(a)
	}
}

// secretSession is a session of the package's browser open at url.
func secretSession(t *testing.T, url string) (*driver.Session, context.Context) {
	t.Helper()
	s, ctx := drivertest.Session(t, t.Name(), 60*time.Second)
	if _, err := s.Open(ctx, calls.OpenRequest{URL: url}); err != nil {
		t.Fatal(err)
	}
	return s, ctx
}

func secrets(name, value string) pilot.Vars {
	return pilot.Vars{Secrets: map[string]secret.Value{name: secret.New(name, value)}}
}

// noneHolds fails the test if any of the texts holds the secret.
func noneHolds(t *testing.T, value string, texts map[string]string) {
	t.Helper()
	for what, text := range texts {
		if strings.Contains(text, value) {
			t.Errorf("%s holds the secret %q: %s", what, value, text)
		}
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// A short PIN the page echoes into its URL and its title: masked in the
// act's outcome and in every later prompt, however short.
func TestSecretEchoedIntoURLAndTitle(t *testing.T) {
	t.Parallel()
	srv := NewServer(t, map[string]string{"/pin": `<!doctype html><title>PIN</title><input aria-label="PIN" id=p>
<button onclick="history.pushState({}, '', '/pin?pin=' + p.value); document.title = 'PIN ' + p.value + ' accepted'">Go</button>`})
	s, ctx := secretSession(t, srv.URL("/pin"))
	const pin = "7Q3" // short, and in no port number
	m := Wrap(&steps{next: []func(string) string{on("fill", "%pin%", `"PIN"`), on("click", "", `"Go"`), on("click", "", `"Go"`)}})
	p := pilot.New(s, m, nil)
	opts := &pilot.ActOptions{Vars: secrets("pin", pin), AllowSubmit: true}
	if _, err := p.Act(ctx, "fill PIN with %pin%", opts); err != nil {
		t.Fatal(err)
	}
	res, err := p.Act(ctx, "click Go", opts)
	if err != nil {
		t.Fatal(err)
	}
	// The page echoed it: the session's registry shows it as its mark.
	if info, _ := s.PageInfo(ctx); !strings.Contains(info.URL+info.Title, secret.Mark("pin")) {
		t.Fatalf("the page did not echo the PIN: %+v", info)
	}
	if _, err := p.Act(ctx, "click Go", opts); err != nil {
		t.Fatal(err)
	}
	noneHolds(t, pin, map[string]string{"the act's result": jsonOf(res)})
	m.NoLeak(t, pin, 0)
}

// otpBoxes are n boxes of size characters each that move the focus on as
// they fill and spread a paste over the boxes after them.
func otpBoxes(label string, n, size int) string {
	return fmt.Sprintf(`<!doctype html><title>Verify</title><form id=f>%s</form><button type=button>Verify</button>
<script>
const boxes = [...f.querySelectorAll('input')], size = %d;
boxes.forEach((b, i) => b.addEventListener('input', () => {
  let rest = b.value.slice(size); b.value = b.value.slice(0, size);
  for (let j = i + 1; rest && j < boxes.length; j++) { boxes[j].value = rest.slice(0, size); rest = rest.slice(size); }
  if (b.value.length === size && boxes[i + 1]) boxes[i + 1].focus();
}));
</script>`, strings.Repeat(`<input aria-label="`+label+`">`, n), size)
}

// A secret typed (or pasted) into the first of several boxes that the page
// spreads over the others: no piece of it shows in a later prompt. A
// one-time code of six one-character boxes, a card number in four.
func TestSecretSplitOverBoxes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, label, value, action string
		n, size, minPiece          int
	}{
		{"code typed", "Digit", "QXZJVK", "type", 6, 1, 2},
		{"code pasted", "Digit", "QXZJVK", "fill", 6, 1, 2},
		{"card", "Card part", "4000056655665556", "fill", 4, 4, 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := NewServer(t, map[string]string{"/": otpBoxes(c.label, c.n, c.size)})
			s, ctx := secretSession(t, srv.URL("/"))
			m := Wrap(&steps{next: []func(string) string{on(c.action, "%code%", `"`+c.label+`"`), on("click", "", `"Verify"`)}})
			p := pilot.New(s, m, nil)
			opts := &pilot.ActOptions{Vars: secrets("code", c.value)}
			if _, err := p.Act(ctx, c.action+" %code% into the boxes", opts); err != nil {
				t.Fatal(err)
			}
			// The page did spread it: the test can fail. The boxes hold
			// the value, which the session's registry masks in any reply.
			var got string
			if res, err := s.Eval(ctx, calls.EvalRequest{Expression: `[...document.querySelectorAll('input')].map(b => b.value).join('')`}); err != nil || json.Unmarshal(res.Value, &got) != nil || got != c.value && got != secret.Mark("code") {
				t.Fatalf("the boxes hold %q (%v)", got, err)
			}
			if _, err := p.Act(ctx, "click Verify", opts); err != nil {
				t.Fatal(err)
			}
			m.NoLeak(t, c.value, c.minPiece)
			// Pieces shorter than NoLeak looks for: no box shows its own.
			for i, prompt := range m.Prompts() {
				for k := 0; k+c.size <= len(c.value); k += c.size {
					if piece := c.value[k : k+c.size]; strings.Contains(prompt, `value="`+piece+`"`) {
						t.Errorf("prompt %d shows the piece %q in a box:\n%s", i+1, piece, prompt)
					}
				}
			}
		})
	}
}

// A date field and a select that refuse a secret: the error says so
// without quoting it, and no prompt holds it.
func TestSecretRefusedByTheField(t *testing.T) {
	t.Parallel()
	srv := NewServer(t, map[string]string{"/": `<!doctype html><title>Form</title>
<input type=date aria-label="Birthday"><select aria-label="Plan"><option>Basic</option><option>Pro</option></select>`})
	s, ctx := secretSession(t, srv.URL("/"))
	const value = "Tr0ub4dor-pin-77"
	m := Wrap(&steps{next: []func(string) string{on("fill", "%pin%", `"Birthday"`), on("select", "%pin%", `"Plan"`)}})
	p := pilot.New(s, m, nil)
	opts := &pilot.ActOptions{Vars: secrets("pin", value)}
	_, errDate := p.Act(ctx, "fill Birthday with %pin%", opts)
	_, errSelect := p.Act(ctx, "select %pin% in Plan", opts)
	if errDate == nil || errSelect == nil {
		t.Fatalf("the fields took the value: %v, %v", errDate, errSelect)
	}
	noneHolds(t, value, map[string]string{"the date error": errDate.Error() + " " + calls.Hint(errDate),
		"the select error": errSelect.Error() + " " + calls.Hint(errSelect)})
	m.NoLeak(t, value, 0)
}

// A page opened with credentials in its URL: neither the outline's header
// in the prompt nor the act's outcome shows them.
func TestSecretURLCredentials(t *testing.T) {
	t.Parallel()
	srv := NewServer(t, map[string]string{"/": `<!doctype html><title>In</title><button onclick="history.pushState({}, '', '/next')">Next</button>`})
	const pass = "Hunter2Pass"
	s, ctx := secretSession(t, strings.Replace(srv.URL("/"), "http://", "http://ann:"+pass+"@", 1))
	m := Wrap(&steps{next: []func(string) string{on("click", "", `"Next"`)}})
	res, err := pilot.New(s, m, nil).Act(ctx, "click Next", nil)
	if err != nil {
		t.Fatal(err)
	}
	noneHolds(t, pass, map[string]string{"the act's result": jsonOf(res)})
	noneHolds(t, "ann:", map[string]string{"the act's result": jsonOf(res)})
	m.NoLeak(t, pass, 0)
	m.NoLeak(t, "ann:", 0)
}

// A form the pilot typed a secret into, then asked to send: the approval
// it needs shows the form without the secret, nor a CVC in a text field.
func TestSecretInTheApproval(t *testing.T) {
	t.Parallel()
	srv := NewServer(t, map[string]string{"/": `<!doctype html><title>Pay</title><form method=post action=/pay>
<input name=answer aria-label="Answer"><input name=cvc aria-label="CVC" value="314"><button>Pay now</button></form>`})
	s, ctx := secretSession(t, srv.URL("/"))
	const value = "blue-whale-9"
	m := Wrap(&steps{next: []func(string) string{on("fill", "%answer%", `"Answer"`), on("click", "", `"Pay now"`)}})
	p := pilot.New(s, m, nil)
	opts := &pilot.ActOptions{Vars: secrets("answer", value)}
	if _, err := p.Act(ctx, "fill Answer with %answer%", opts); err != nil {
		t.Fatal(err)
	}
	_, err := p.Act(ctx, "click Pay now", opts)
	if !errors.Is(err, calls.ErrNeedsApproval) {
		t.Fatalf("want needs_approval, got %v", err)
	}
	var a calls.Approval
	if err := json.Unmarshal(calls.DataOf(err), &a); err != nil {
		t.Fatal(err)
	}
	noneHolds(t, value, map[string]string{"the approval": err.Error() + " " + jsonOf(a)})
	if a.Form["answer"] != secret.Masked || a.Form["cvc"] != secret.Masked {
		t.Errorf("the approval's form shows a secret: %v", a.Form)
	}
	if n := srv.Count("POST", "/pay"); n != 0 {
		t.Errorf("%d POSTs reached the server", n)
	}
	m.NoLeak(t, value, 0)
}
