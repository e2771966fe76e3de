package driver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"sync"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/keys"
)

// The clipboard, as a hand uses it: the selection is copied with the
// app's own Control+C, and what the app put on the clipboard is read in
// our isolated world (navigator.clipboard, with the permission granted to
// the page's origin for the session's browser context only). Before the
// copy a marker of ours is written, so a copy the app refused (a page
// that blocks copying) is told from one that copied, and the clipboard's
// prior text and HTML are put back afterwards. Only text and HTML are
// kept: an image on the clipboard before is lost (the async clipboard API
// writes back only what it read, and we read only those two).
//
// One browser has one clipboard, which its sessions share: copies are
// serialized across the process (clipboardMu), and after each the
// permission goes back to "prompt" (refused with no person), so neither
// this page nor another session's can read what was copied or what others
// copy later.

// clipboardMu serializes copies: two at once would read each other's.
var clipboardMu sync.Mutex

// copyWait bounds the wait for an app's copy to reach the clipboard (some
// apps copy in a task of their own).
const copyWait = 3 * time.Second

// blockedGrace is how long a copy the page prevented may still reach the
// clipboard from the app's own task before it counts as blocked.
const blockedGrace = 300 * time.Millisecond

// clipData is what a clipboard read found.
type clipData struct {
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

// copySelection copies the current tab's selection with Control+C and
// returns the clipboard's text and HTML (the shape s-doc's copy shares).
func (s *Session) copySelection(ctx context.Context) (text, html string, err error) {
	t, err := s.current(ctx)
	if err != nil {
		return "", "", err
	}
	return s.copyTab(ctx, t)
}

// copyTab copies the tab's selection (copySelection on the current tab).
func (s *Session) copyTab(ctx context.Context, t *tab) (text, html string, err error) {
	clipboardMu.Lock()
	defer clipboardMu.Unlock()
	if err := s.grantClipboard(ctx, t, browser.PermissionSettingGranted); err != nil {
		return "", "", err
	}
	defer func() {
		// Runs last: the prior content is back before the permission goes.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		_ = s.grantClipboard(cctx, t, browser.PermissionSettingPrompt)
	}()
	// A headless page is not focused unless it says so, and the
	// clipboard answers only a focused document.
	if _, err := call(ctx, t, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
		return "", "", err
	}
	defer call(context.WithoutCancel(ctx), t, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: false})
	prior, err := t.clipRead(ctx)
	if err != nil {
		return "", "", err
	}
	defer func() {
		// Put back what was there (an empty text when nothing was).
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		_ = t.clipWrite(cctx, prior.Text, prior.HTML)
	}()
	var b [8]byte
	_, _ = rand.Read(b[:])
	mark := "waymark-copy-" + hex.EncodeToString(b[:])
	if err := t.clipWrite(ctx, mark, ""); err != nil {
		return "", "", err
	}
	var watch copyWatch
	if err := t.evalWorld(ctx, t.sess, t.mainFrame(), jsCopyWatch+"(true)", &watch); err != nil {
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
	if err := keys.Dispatch(ctx, t.sess, evs); err != nil {
		return "", "", browserErr(err)
	}
	deadline := time.Now().Add(copyWait)
	for {
		got, err := t.clipRead(ctx)
		if err != nil {
			return "", "", err
		}
		if got.Text != mark || got.HTML != "" {
			return got.Text, got.HTML, nil
		}
		if err := t.evalWorld(ctx, t.sess, t.mainFrame(), jsCopyWatch+"(false)", &watch); err != nil {
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
		if err := sleep(ctx, 30*time.Millisecond); err != nil {
			return "", "", err
		}
	}
}

// clipRead reads the clipboard's text and HTML in the main frame's
// isolated world.
func (t *tab) clipRead(ctx context.Context) (clipData, error) {
	var c clipData
	if err := t.evalWorld(ctx, t.sess, t.mainFrame(), jsClipRead, &c); err != nil {
		return c, err
	}
	if !c.OK {
		return c, calls.Errorf(calls.ErrNotInteractable, "the page's permissions policy may forbid the clipboard (clipboard-read); read it another way",
			"cannot read the clipboard: %s", c.Err)
	}
	return c, nil
}

// clipWrite writes the clipboard in the main frame's isolated world.
func (t *tab) clipWrite(ctx context.Context, text, html string) error {
	var problem string
	expr := fmt.Sprintf("%s(%s, %s)", jsClipWrite, jsString(text), jsString(html))
	if err := t.evalWorld(ctx, t.sess, t.mainFrame(), expr, &problem); err != nil {
		return err
	}
	if problem != "" {
		return calls.Errorf(calls.ErrNotInteractable, "the page's permissions policy may forbid the clipboard (clipboard-write); read it another way",
			"cannot write the clipboard: %s", problem)
	}
	return nil
}

// grantClipboard sets whether the page's origin may read and write the
// clipboard, in the session's browser context only (our isolated world
// shares the page's origin, and so its permissions): granted for a copy,
// back to prompt after.
func (s *Session) grantClipboard(ctx context.Context, t *tab, setting browser.PermissionSetting) error {
	u, err := url.Parse(t.url())
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return calls.Errorf(calls.ErrBadInput, "open the spreadsheet's or document's page first", "the tab shows no web page with an origin (%s)", t.url())
	}
	origin := u.Scheme + "://" + u.Host
	bctx, cancel := context.WithCancel(s.browser.ctx)
	defer cancel()
	defer context.AfterFunc(ctx, cancel)()
	for _, p := range []*browser.PermissionDescriptor{
		{Name: "clipboard-read"},
		{Name: "clipboard-write", AllowWithoutSanitization: true},
	} {
		_, err = chromedp.CallBrowser(bctx, browser.SetPermission, browser.SetPermissionParams{
			Permission: p, Setting: setting, Origin: origin, BrowserContextID: s.bcid,
		})
		if err != nil {
			return browserErr(err)
		}
	}
	return nil
}

// pressKeys presses each chord in turn with the hand's keys, on whatever
// has the focus.
func pressKeys(ctx context.Context, t *tab, chords ...string) error {
	for _, c := range chords {
		evs, err := keys.Press(c)
		if err != nil {
			return err
		}
		if err := keys.Dispatch(ctx, t.sess, evs); err != nil {
			return browserErr(err)
		}
	}
	return nil
}
