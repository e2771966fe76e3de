package keys_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"

	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/internal/keys"
)

// formPage has two inputs in a form that records its submission, and logs
// every keydown the inputs see.
const formPage = `<!doctype html>
<form id=f><input id=a name=a><input id=b name=b><button>Go</button></form>
<textarea id=t></textarea>
<script>
window.keydowns = [];
window.submitted = 0;
for (const el of document.querySelectorAll('input, textarea')) {
  el.addEventListener('keydown', e => keydowns.push(
    e.key + ' ' + e.code + ' ' + e.keyCode + ' ' + e.location +
    (e.ctrlKey ? ' ctrl' : '') + (e.shiftKey ? ' shift' : '')));
}
document.getElementById('f').addEventListener('submit', e => {
  e.preventDefault();
  submitted++;
});
</script>`

func openForm(t *testing.T) context.Context {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(formPage))
	}))
	t.Cleanup(ts.Close)
	ctx := browsertest.Tab(t)
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL)); err != nil {
		t.Fatalf("navigate: %v", err)
	}
	return ctx
}

func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("evaluate %s: %v", js, err)
	}
	return v
}

func press(t *testing.T, ctx context.Context, spec string) {
	t.Helper()
	evs, err := keys.Press(spec)
	if err != nil {
		t.Fatalf("Press(%q): %v", spec, err)
	}
	_, err = chromedp.Run(ctx, func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		return chromedp.Void{}, keys.Dispatch(ctx, tg, evs)
	})
	if err != nil {
		t.Fatalf("press %s: %v", spec, err)
	}
}

func typeText(t *testing.T, ctx context.Context, text string) {
	t.Helper()
	_, err := chromedp.Run(ctx, func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		return chromedp.Void{}, keys.Send(ctx, tg, keys.Type(text))
	})
	if err != nil {
		t.Fatalf("type %q: %v", text, err)
	}
}

func TestBrowserType(t *testing.T) {
	t.Parallel()
	ctx := openForm(t)
	eval[chromedp.Void](t, ctx, `document.getElementById('a').focus()`)
	typeText(t, ctx, "Hello, World!")
	if got := eval[string](t, ctx, `document.getElementById('a').value`); got != "Hello, World!" {
		t.Errorf("value = %q, want %q", got, "Hello, World!")
	}
	got := eval[[]string](t, ctx, `keydowns.slice(0, 2)`)
	want := []string{"H KeyH 72 0 shift", "e KeyE 69 0"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("keydowns (-want +got):\n%s", diff)
	}

	typeText(t, ctx, " café 漢字 🙂")
	if got := eval[string](t, ctx, `document.getElementById('a').value`); got != "Hello, World! café 漢字 🙂" {
		t.Errorf("value after inserted text = %q", got)
	}
}

func TestBrowserSelectAllBackspace(t *testing.T) {
	t.Parallel()
	ctx := openForm(t)
	eval[chromedp.Void](t, ctx, `document.getElementById('a').focus()`)
	typeText(t, ctx, "some text")
	press(t, ctx, "Control+A")
	press(t, ctx, "Backspace")
	if got := eval[string](t, ctx, `document.getElementById('a').value`); got != "" {
		t.Errorf("value after Control+A, Backspace = %q, want empty", got)
	}
	got := eval[[]string](t, ctx, `keydowns.slice(-3)`)
	want := []string{"Control ControlLeft 17 1 ctrl", "a KeyA 65 0 ctrl", "Backspace Backspace 8 0"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("keydowns (-want +got):\n%s", diff)
	}
}

// Meta+A carries the selectAll command, so it selects all on Linux too.
func TestBrowserMetaA(t *testing.T) {
	t.Parallel()
	ctx := openForm(t)
	eval[chromedp.Void](t, ctx, `document.getElementById('a').focus()`)
	typeText(t, ctx, "some text")
	press(t, ctx, "Meta+A")
	press(t, ctx, "Delete")
	if got := eval[string](t, ctx, `document.getElementById('a').value`); got != "" {
		t.Errorf("value after Meta+A, Delete = %q, want empty", got)
	}
}

func TestBrowserShiftTab(t *testing.T) {
	t.Parallel()
	ctx := openForm(t)
	eval[chromedp.Void](t, ctx, `document.getElementById('b').focus()`)
	press(t, ctx, "Shift+Tab")
	if got := eval[string](t, ctx, `document.activeElement.id`); got != "a" {
		t.Errorf("focus after Shift+Tab on #b = %q, want a", got)
	}
	press(t, ctx, "Tab")
	if got := eval[string](t, ctx, `document.activeElement.id`); got != "b" {
		t.Errorf("focus after Tab on #a = %q, want b", got)
	}
}

func TestBrowserEnterSubmits(t *testing.T) {
	t.Parallel()
	ctx := openForm(t)
	eval[chromedp.Void](t, ctx, `document.getElementById('a').focus()`)
	typeText(t, ctx, "q")
	press(t, ctx, "Enter")
	if got := eval[int](t, ctx, `submitted`); got != 1 {
		t.Errorf("submissions after Enter = %d, want 1", got)
	}
	// Typed "\n" is Enter too.
	typeText(t, ctx, "\n")
	if got := eval[int](t, ctx, `submitted`); got != 2 {
		t.Errorf("submissions after typing \\n = %d, want 2", got)
	}
}

func TestBrowserTextareaNewline(t *testing.T) {
	t.Parallel()
	ctx := openForm(t)
	eval[chromedp.Void](t, ctx, `document.getElementById('t').focus()`)
	typeText(t, ctx, "one\ntwo\r\nthree")
	if got := eval[string](t, ctx, `document.getElementById('t').value`); got != "one\ntwo\nthree" {
		t.Errorf("textarea value = %q", got)
	}
}
