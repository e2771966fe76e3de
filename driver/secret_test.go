package driver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/secret"
)

// splitCode is a one-time code of six one-digit boxes that move the focus
// on, and a card number in four boxes that spreads a paste over them.
const splitCode = `<!doctype html><title>Verify</title>` + maskFields + `
<style>input { width: 60px; display: inline-block; margin: 4px }</style>
<form id=otp>` + `<input aria-label="Digit 1"><input aria-label="Digit 2"><input aria-label="Digit 3"><input aria-label="Digit 4"><input aria-label="Digit 5"><input aria-label="Digit 6">` + `</form>
<form id=card><input aria-label="Card 1"><input aria-label="Card 2"><input aria-label="Card 3"><input aria-label="Card 4"></form>
<input aria-label="Note" value="plain">
<script>
for (const form of [otp, card]) {
  const boxes = [...form.querySelectorAll('input')];
  const size = form.id === 'otp' ? 1 : 4;
  boxes.forEach((b, i) => b.addEventListener('input', () => {
    // A paste into a box spreads over the ones after it.
    let rest = b.value.slice(size);
    b.value = b.value.slice(0, size);
    for (let j = i + 1; rest && j < boxes.length; j++) { boxes[j].value = rest.slice(0, size); rest = rest.slice(size); }
    if (b.value.length === size && boxes[i + 1]) boxes[i + 1].focus();
  }));
}
</script>`

// TestSecretSplitBoxes: a secret typed into the first of several boxes
// that the page spreads over the others is masked in every box, in
// outlines and in screenshots, however short each piece is.
func TestSecretSplitBoxes(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{calls.ActType, calls.ActFill} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			s, ctx := newSession(t)
			srv := serve(t, map[string]string{"/": splitCode})
			open(t, s, ctx, srv.URL)
			look := snapshot(t, s, ctx, calls.SnapshotRequest{Full: true})
			act(t, s, ctx, calls.ActRequest{Kind: kind, Target: refOf(t, look, `"Digit 1"`), Value: "482913", Secret: "code"})
			act(t, s, ctx, calls.ActRequest{Kind: kind, Target: refOf(t, look, `"Card 1"`), Value: "4242424242424242", Secret: "card"})
			// The page did spread them: the test can fail (a reply shows
			// the whole code as its mark: the session's registry masks it).
			if got := evalString(t, s, ctx, `[...document.querySelectorAll('#otp input')].map(b => b.value).join('')`); got != "482913" && got != secret.Mark("code") {
				t.Fatalf("the code boxes hold %q", got)
			}
			if got := evalString(t, s, ctx, `[...document.querySelectorAll('#card input')].map(b => b.value).join(' ')`); got != "4242 4242 4242 4242" {
				t.Fatalf("the card boxes hold %q", got)
			}
			text := snapshot(t, s, ctx, calls.SnapshotRequest{Full: true})
			for _, piece := range []string{"4", "8", "2", "9", "1", "3", "4242"} {
				if strings.Contains(text, `value="`+piece+`"`) {
					t.Errorf("a piece %q of a secret shows:\n%s", piece, text)
				}
			}
			if strings.Count(text, `value="«secret:code»"`) != 6 || strings.Count(text, `value="«secret:card»"`) != 4 || !strings.Contains(text, `value="plain"`) {
				t.Errorf("want six code boxes and four card boxes masked, the note shown:\n%s", text)
			}

			// Every box is black in a screenshot asked with no mask; the
			// note is not.
			res, err := s.Eval(ctx, calls.EvalRequest{Expression: `(() => { ` + jsBox + `
				return {Masked: [...document.querySelectorAll('form input')].map(b => box(b)), Plain: [box(document.querySelector('[aria-label=Note]'))], Width: innerWidth}; })()`})
			if err != nil {
				t.Fatal(err)
			}
			var b shotBoxes
			if err := json.Unmarshal(res.Value, &b); err != nil {
				t.Fatal(err)
			}
			img := shot(t, s, ctx, calls.ScreenshotRequest{})
			for _, r := range b.Masked {
				if at := pixel(img, b.Width, rect{r.X + r.W/2, r.Y + r.H/2, 0, 0}); !black(at) {
					t.Errorf("box %+v is %v in the screenshot, not black", r, at)
				}
			}
			for _, r := range b.Plain {
				if at := pixel(img, b.Width, rect{r.X + r.W/2, r.Y + r.H/2, 0, 0}); !green(at) {
					t.Errorf("the note %+v is %v, not green", r, at)
				}
			}
		})
	}
}

// TestFailedFillQuotesNoValue: a value a date field or a select refuses
// is not quoted in the error, which reaches logs and models.
func TestFailedFillQuotesNoValue(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": `<!doctype html><title>Form</title>
<input type=date aria-label="Birthday"><select aria-label="Plan"><option>Basic</option><option>Pro</option></select>`})
	open(t, s, ctx, srv.URL)
	look := snapshot(t, s, ctx, calls.SnapshotRequest{})
	const value = "Tr0ub4dor-pin-77"
	_, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActFill, Target: refOf(t, look, `"Birthday"`), Value: value, Secret: "pin"})
	if err == nil || strings.Contains(err.Error(), value) || strings.Contains(calls.Hint(err), value) {
		t.Errorf("date fill: %v (hint %q)", err, calls.Hint(err))
	}
	_, err = s.Act(ctx, calls.ActRequest{Kind: calls.ActSelect, Target: refOf(t, look, `"Plan"`), Values: []string{value}})
	if err == nil || strings.Contains(err.Error(), value) || strings.Contains(calls.Hint(err), value) {
		t.Errorf("select: %v (hint %q)", err, calls.Hint(err))
	}
	if err != nil && !strings.Contains(calls.Hint(err), `"Basic"`) {
		t.Errorf("select: the hint lost the options: %q", calls.Hint(err))
	}
}

// TestURLCredentialsNotShown: a page opened with user:password@ in its
// URL does not show them in the outline's header, its page info or an
// action's outcome.
func TestURLCredentialsNotShown(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(`<!doctype html><title>In</title><button onclick="history.pushState({}, '', '/next')">Next</button>`))
	}))
	t.Cleanup(srv.Close)
	const pass = "hunter2pass"
	u := strings.Replace(srv.URL, "http://", "http://ann:"+pass+"@", 1) + "/"
	info, err := s.Open(ctx, calls.OpenRequest{URL: u})
	if err != nil {
		t.Fatal(err)
	}
	look := snapshot(t, s, ctx, calls.SnapshotRequest{})
	out := act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: refOf(t, look, `"Next"`)})
	now, err := s.PageInfo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tabs, err := s.Tab(ctx, calls.TabRequest{Op: "list"})
	if err != nil {
		t.Fatal(err)
	}
	for what, text := range map[string]string{"open": info.URL, "outline": look, "outcome": out.URL, "page info": now.URL, "tabs": tabs.Tabs[0].URL} {
		if strings.Contains(text, pass) || strings.Contains(text, "ann@") {
			t.Errorf("%s shows the URL's credentials: %s", what, text)
		}
	}
}

// TestApprovalFormMasksSecrets: the form an approval shows masks a field
// a secret was typed into and a field secret.Field calls secret (a CVC in
// a text field, a password), and shows the others.
func TestApprovalFormMasksSecrets(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": `<!doctype html><title>Pay</title><form action="/paid">
<input name=answer aria-label="Answer"><input name=cvc aria-label="CVC"><input name=pw type=password aria-label="Password">
<input name=email aria-label="Email"><button>Pay now</button></form>`})
	open(t, s, ctx, srv.URL)
	look := snapshot(t, s, ctx, calls.SnapshotRequest{})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: refOf(t, look, `"Answer"`), Value: "blue-whale", Secret: "answer"})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: refOf(t, look, `"CVC"`), Value: "321"})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: refOf(t, look, `"Password"`), Value: "hunter2!"})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: refOf(t, look, `"Email"`), Value: "ann@example.com"})
	_, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: refOf(t, look, `"Pay now"`), Submits: "ask"})
	var ce *calls.Error
	if !errors.As(err, &ce) || !errors.Is(err, calls.ErrNeedsApproval) {
		t.Fatalf("want needs_approval, got %v", err)
	}
	var a calls.Approval
	if err := json.Unmarshal(ce.Data, &a); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"answer": "••••", "cvc": "••••", "pw": "••••", "email": "ann@example.com"}
	for k, v := range want {
		if a.Form[k] != v {
			t.Errorf("form[%s] = %q, want %q (form %v)", k, a.Form[k], v, a.Form)
		}
	}
	// The approval, sent back, still matches the page.
	if _, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: refOf(t, look, `"Pay now"`), Submits: "ask", Approve: &a}); err != nil {
		t.Errorf("the approval sent back: %v", err)
	}
}

// TestBrowserEnvScrubbed: the browser starts with no model key and no
// variable a secret came from in its environment.
func TestBrowserEnvScrubbed(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	t.Setenv("OPENAI_API_KEY", "sk-proj-Zq8Xw2Lk9Vb4Nm7Pd1Rt6Yh3")
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-api03-Zq8Xw2Lk9Vb4Nm7Pd1")
	t.Setenv("S", "482913")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const marker = "waymark-env-test"
	b, err := driver.Launch(ctx, driver.Options{ExecPath: browsertest.Chrome(t), Args: []string{"--" + marker}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, err := b.Session(ctx, "env"); err != nil {
		t.Fatal(err)
	}
	procs, _ := filepath.Glob("/proc/[0-9]*")
	found := 0
	for _, p := range procs {
		cmdline, err := os.ReadFile(p + "/cmdline")
		if err != nil || !bytes.Contains(cmdline, []byte(marker)) {
			continue
		}
		env, err := os.ReadFile(p + "/environ")
		if err != nil {
			continue
		}
		found++
		for _, kv := range strings.Split(string(env), "\x00") {
			name, value, _ := strings.Cut(kv, "=")
			if name == "OPENAI_API_KEY" || name == "ANTHROPIC_API_KEY" || name == "S" || strings.Contains(value, "482913") {
				t.Errorf("browser process %s has %s in its environment", p, name)
			}
		}
	}
	if found == 0 {
		t.Fatal("found no browser process to check")
	}
}

// TestOutlineMasksSecretFields: an outline shows the value of a field
// secret.Field calls secret as ••••, whatever its type, and leaves it out
// of the names it makes part of.
func TestOutlineMasksSecretFields(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": `<!doctype html><title>Pay</title>
<input aria-label="CVC" value="321"><input aria-label="Verify" autocomplete="one-time-code" value="482913">
<input aria-label="Postal code" value="SW1A 1AA"><button>Pay with <input name=cvv value="987"> now</button>`})
	open(t, s, ctx, srv.URL)
	text := snapshot(t, s, ctx, calls.SnapshotRequest{})
	// Below the [page] line, whose URL's port may hold the digits.
	_, outline, _ := strings.Cut(text, "\n")
	for _, v := range []string{"321", "482913", "987"} {
		if strings.Contains(outline, v) {
			t.Errorf("the outline shows %s:\n%s", v, text)
		}
	}
	if strings.Count(text, `value="••••"`) != 3 || !strings.Contains(text, `value="SW1A 1AA"`) {
		t.Errorf("want the CVC, the code and the CVV masked, the postal code shown:\n%s", text)
	}
}
