package clipboard

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/keys"
)

// clipboardMu serializes copies: two at once would read each other's.
var clipboardMu sync.Mutex

// copyWait bounds the wait for an app's copy to reach the clipboard (some
// apps copy in a task of their own).
const copyWait = 3 * time.Second

// blockedGrace is how long a copy the page prevented may still reach the
// clipboard from the app's own task before it counts as blocked.
const blockedGrace = 300 * time.Millisecond

// Data is what a clipboard read found.
type Data struct {
	OK   bool   `json:"ok"`
	Err  string `json:"err"`
	Text string `json:"text"`
	HTML string `json:"html"`
	Has  bool   `json:"has"` // anything of the two kinds was there
}

const jsClipRead = `(async () => {
  try {
    const items = await navigator.clipboard.read();
    const out = {ok: true, err: "", text: "", html: "", has: false};
    for (const it of items) for (const t of it.types) {
      if (t === "text/plain") { out.text = await (await it.getType(t)).text(); out.has = true; }
      if (t === "text/html") { out.html = await (await it.getType(t)).text(); out.has = true; }
    }
    return out;
  } catch (e) { return {ok: false, err: String(e && e.message || e), text: "", html: "", has: false}; }
})()`

// jsClipWrite puts text (and HTML when given) on the clipboard.
const jsClipWrite = `(async (text, html) => {
  try {
    const parts = {"text/plain": new Blob([text], {type: "text/plain"})};
    if (html) parts["text/html"] = new Blob([html], {type: "text/html"});
    await navigator.clipboard.write([new ClipboardItem(parts)]);
    return "";
  } catch (e) { return String(e && e.message || e); }
})`

// jsCopyWatch watches the copy events of the document from our world
// (listeners of an isolated world are invisible to the page's scripts),
// so that an empty copy — an empty cell, whose copy leaves the clipboard
// as it was — is told from a copy the page stopped: the event came and
// went through unprevented. Called with reset, it starts a new watch;
// without, it returns what was seen.
const jsCopyWatch = `((reset) => {
  const w = globalThis.__waymarkCopy || (globalThis.__waymarkCopy = {fired: false, reached: false, prevented: false, data: false});
  if (!globalThis.__waymarkCopyOn) {
    globalThis.__waymarkCopyOn = true;
    addEventListener("copy", () => { globalThis.__waymarkCopy.fired = true; }, true);
    addEventListener("copy", e => {
      const s = globalThis.__waymarkCopy;
      s.reached = true; s.prevented = e.defaultPrevented;
      s.data = !!(e.clipboardData && e.clipboardData.types && e.clipboardData.types.length);
    }, false);
  }
  if (reset) globalThis.__waymarkCopy = {fired: false, reached: false, prevented: false, data: false};
  return globalThis.__waymarkCopy;
})`

// copyWatch is what jsCopyWatch saw.
type copyWatch struct {
	Fired, Reached, Prevented, Data bool
}

// emptyCopy says the copy went through with nothing selected to copy.
func (w copyWatch) emptyCopy() bool { return w.Fired && w.Reached && !w.Prevented }

// Copy copies the tab's selection with Control+C and returns the
// clipboard's text and HTML (the shape s-doc's copy shares); grant opens
// the clipboard to the page's origin for the copy.
func Copy(ctx context.Context, t Tab, grant Grant) (text, html string, err error) {
	clipboardMu.Lock()
	defer clipboardMu.Unlock()
	if err := grant(ctx, browser.PermissionSettingGranted); err != nil {
		return "", "", err
	}
	defer func() {
		// Runs last: the prior content is back before the permission goes.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		_ = grant(cctx, browser.PermissionSettingPrompt)
	}()
	restore, err := Focus(ctx, t)
	if err != nil {
		return "", "", err
	}
	defer restore()
	prior, err := Read(ctx, t)
	if err != nil {
		return "", "", err
	}
	defer func() {
		// Put back what was there (an empty text when nothing was).
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		_ = Write(cctx, t, prior.Text, prior.HTML)
	}()
	var b [8]byte
	_, _ = rand.Read(b[:])
	mark := "waymark-copy-" + hex.EncodeToString(b[:])
	if err := Write(ctx, t, mark, ""); err != nil {
		return "", "", err
	}
	var watch copyWatch
	frame, _ := t.Doc()
	if err := t.EvalWorld(ctx, frame, jsCopyWatch+"(true)", &watch); err != nil {
		return "", "", err
	}
	evs, _ := keys.Press("Control+c")
	for i := range evs {
		if evs[i].Type == input.DispatchKeyEventTypeRawKeyDown && evs[i].Key == "c" {
			// Headless Chromium runs no editing shortcut of its own for
			// a synthetic Control+C: the copy command goes with the key,
			// as a keyboard's would (an app that handles the key itself
			// and prevents its default runs it not).
			evs[i].Commands = []string{"copy"}
		}
	}
	if err := keys.Dispatch(ctx, t.Target(), evs); err != nil {
		return "", "", err
	}
	deadline := time.Now().Add(copyWait)
	for {
		got, err := Read(ctx, t)
		if err != nil {
			return "", "", err
		}
		if got.Text != mark || got.HTML != "" {
			return got.Text, got.HTML, nil
		}
		if err := t.EvalWorld(ctx, frame, jsCopyWatch+"(false)", &watch); err != nil {
			return "", "", err
		}
		if watch.emptyCopy() {
			return "", "", nil
		}
		// A copy the page prevented with nothing put in its place is
		// blocked: told after a short grace (an app may still write the
		// clipboard from a task of its own), not after the whole wait.
		blocked := watch.Fired && watch.Prevented && !watch.Data && time.Until(deadline) < copyWait-blockedGrace
		if blocked || time.Now().After(deadline) {
			return "", "", calls.Errorf(calls.ErrNotInteractable, "the page may block copying; read it another way ("+calls.Cmd("get text")+", or the app's export)",
				"the page blocked the copy: nothing reached the clipboard after Control+C")
		}
		select {
		case <-time.After(30 * time.Millisecond):
		case <-ctx.Done():
			return "", "", ctx.Err()
		}
	}
}

// Focus makes the tab's page focused until restore: a headless page is
// not focused unless it says so, and the clipboard answers only a focused
// document. The caller grants the clipboard first.
func Focus(ctx context.Context, t Tab) (restore func(), err error) {
	if _, err := cdp.Call(ctx, t.Target(), emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
		return nil, err
	}
	return func() {
		// Bounded: a page a dialog or a script holds never answers.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		_, _ = cdp.Call(cctx, t.Target(), emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: false})
	}, nil
}

// Read reads the clipboard's text and HTML in the main frame's isolated
// world (granted and focused: Copy does both).
func Read(ctx context.Context, t Tab) (Data, error) {
	var c Data
	frame, _ := t.Doc()
	if err := t.EvalWorld(ctx, frame, jsClipRead, &c); err != nil {
		return c, err
	}
	if !c.OK {
		return c, calls.Errorf(calls.ErrNotInteractable, "the page's permissions policy may forbid the clipboard (clipboard-read); read it another way",
			"cannot read the clipboard: %s", c.Err)
	}
	return c, nil
}

// Write writes the clipboard's text (and HTML when given) in the main
// frame's isolated world.
func Write(ctx context.Context, t Tab, text, html string) error {
	var problem string
	expr := fmt.Sprintf("%s(%s, %s)", jsClipWrite, jsString(text), jsString(html))
	frame, _ := t.Doc()
	if err := t.EvalWorld(ctx, frame, expr, &problem); err != nil {
		return err
	}
	if problem != "" {
		return calls.Errorf(calls.ErrNotInteractable, "the page's permissions policy may forbid the clipboard (clipboard-write); read it another way",
			"cannot write the clipboard: %s", problem)
	}
	return nil
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string { b, _ := json.Marshal(s); return string(b) }
