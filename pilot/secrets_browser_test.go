package pilot_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/secret"
)

// promptLog is a scripted model that keeps every prompt it is sent, to
// assert that no secret reaches a model.
type promptLog struct {
	mu      sync.Mutex
	prompts []string
	steps   []func(outline string) string
}

func (m *promptLog) Next(ctx context.Context, turn pilot.Turn) (pilot.Reply, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	text := turn.System
	for _, msg := range turn.Messages {
		text += "\n" + msg.Text
	}
	m.prompts = append(m.prompts, text)
	if len(m.steps) == 0 {
		return pilot.Reply{}, fmt.Errorf("call %d is beyond the script", len(m.prompts))
	}
	s := m.steps[0]
	m.steps = m.steps[1:]
	return pilot.Reply{Data: json.RawMessage(s(turn.Messages[0].Text)), Model: "log"}, nil
}

func (m *promptLog) all() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return strings.Join(m.prompts, "\n----\n")
}

// secretPages serves a PIN form whose page echoes the PIN into its URL
// and title, and a one-time code of six one-digit boxes that move the
// focus on.
func secretPages(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/pin", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>PIN</title><input aria-label="PIN" id=p>
<button onclick="history.pushState({}, '', '/pin?pin=' + p.value); document.title = 'PIN ' + p.value + ' accepted'">Go</button>`)
	})
	mux.HandleFunc("/code", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>Verify</title><form id=f>`+strings.Repeat(`<input aria-label="Digit">`, 6)+`</form>
<button type=button>Verify</button>
<script>
const boxes = [...f.querySelectorAll('input')];
boxes.forEach((b, i) => b.addEventListener('input', () => {
  let rest = b.value.slice(1); b.value = b.value.slice(0, 1);
  for (let j = i + 1; rest && j < boxes.length; j++) { boxes[j].value = rest[0]; rest = rest.slice(1); }
  if (b.value && boxes[i + 1]) boxes[i + 1].focus();
}));
</script>`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// TestActEchoedShortSecret: a three-digit PIN the page echoes into its URL
// and title shows in neither the act's outcome nor any later prompt.
func TestActEchoedShortSecret(t *testing.T) {
	s, ctx := drivertest.Session(t, "echo", 60*time.Second)
	srv := secretPages(t)
	if _, err := s.Open(ctx, openReq(srv.URL+"/pin")); err != nil {
		t.Fatal(err)
	}
	const pin = "739"
	m := &promptLog{steps: []func(string) string{
		func(o string) string {
			return fmt.Sprintf(`{"action":"fill","ref":%q,"value":"%%pin%%"}`, refOf(t, o, "textbox", "PIN"))
		},
		func(o string) string { return fmt.Sprintf(`{"action":"click","ref":%q}`, refOf(t, o, "button", "Go")) },
		func(o string) string { return fmt.Sprintf(`{"action":"click","ref":%q}`, refOf(t, o, "button", "Go")) },
	}}
	vars := pilot.Vars{Secrets: map[string]secret.Value{"pin": secret.New("pin", pin)}}
	p := pilot.New(s, m, nil)
	opts := &pilot.ActOptions{Vars: vars, AllowSubmit: true}
	if _, err := p.Act(ctx, "fill PIN with %pin%", opts); err != nil {
		t.Fatal(err)
	}
	res, err := p.Act(ctx, "click Go", opts)
	if err != nil {
		t.Fatal(err)
	}
	// The page did echo it: the test can fail.
	if info, _ := s.PageInfo(ctx); !strings.Contains(info.URL+info.Title, pin) {
		t.Fatalf("the page did not echo the PIN: %+v", info)
	}
	out, _ := json.Marshal(res)
	if strings.Contains(string(out), pin) {
		t.Errorf("the act's result shows the PIN: %s", out)
	}
	if _, err := p.Act(ctx, "click Go", opts); err != nil {
		t.Fatal(err)
	}
	if all := m.all(); strings.Contains(all, pin) {
		t.Errorf("a prompt holds the PIN:\n%s", all)
	}
}

// TestActSplitCodeNeverShown: a code typed into the first of six
// one-digit boxes that move the focus on shows none of its digits in the
// next prompt.
func TestActSplitCodeNeverShown(t *testing.T) {
	s, ctx := drivertest.Session(t, "split", 60*time.Second)
	srv := secretPages(t)
	if _, err := s.Open(ctx, openReq(srv.URL+"/code")); err != nil {
		t.Fatal(err)
	}
	const code = "482913"
	m := &promptLog{steps: []func(string) string{
		func(o string) string {
			return fmt.Sprintf(`{"action":"type","ref":%q,"value":"%%code%%"}`, refOf(t, o, "textbox", "Digit"))
		},
		func(o string) string {
			return fmt.Sprintf(`{"action":"click","ref":%q}`, refOf(t, o, "button", "Verify"))
		},
	}}
	vars := pilot.Vars{Secrets: map[string]secret.Value{"code": secret.New("code", code)}}
	p := pilot.New(s, m, nil)
	if _, err := p.Act(ctx, "type %code% into the code", &pilot.ActOptions{Vars: vars}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Act(ctx, "click Verify", &pilot.ActOptions{Vars: vars}); err != nil {
		t.Fatal(err)
	}
	all := m.all()
	for _, d := range code {
		if strings.Contains(all, fmt.Sprintf(`value="%c"`, d)) {
			t.Errorf("a prompt shows the digit %c of the code:\n%s", d, all)
		}
	}
	if strings.Contains(all, code) {
		t.Errorf("a prompt shows the code:\n%s", all)
	}
}

func openReq(url string) calls.OpenRequest { return calls.OpenRequest{URL: url} }
