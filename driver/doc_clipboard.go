package driver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"sync"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/keys"
)

// The clipboard of a document read: the hand presses Control+C, and our
// isolated world reads what the page's copy put on the clipboard, its
// text and its HTML, with the permission granted to the page's origin
// for the session's browser context. (The lead folds this with the
// spreadsheet's clipboard.go at merge: same shape.)

// clipboardMu serializes copies: one browser has one clipboard, which the
// sessions share, so two reads at once would read each other's copy.
var clipboardMu sync.Mutex

// clipboardReply is what js/doc_clipboard.js returns.
type clipboardReply struct {
	OK    bool   `json:"ok"`
	Error string `json:"error"`
	Text  string `json:"text"`
	HTML  string `json:"html"`
}

// errCopyBlocked says the page's copy put nothing on the clipboard.
var errCopyBlocked = calls.Errorf(calls.ErrNotInteractable,
	"the page stops its own copy (a copy handler, or a policy of the site); read it with waymark get text instead",
	"the page blocked the copy: nothing reached the clipboard")

// copySelection copies what is selected in the current tab, as Control+C
// does, and returns the clipboard's text and HTML. A sentinel written
// first tells a copy the page blocked from one that copied.
func (s *Session) copySelection(ctx context.Context) (text, html string, err error) {
	t, err := s.current(ctx)
	if err != nil {
		return "", "", err
	}
	clipboardMu.Lock()
	defer clipboardMu.Unlock()
	if err := s.grantClipboard(ctx, t, browser.PermissionSettingGranted); err != nil {
		return "", "", err
	}
	// The read needs a focused page, which a tab of another session in
	// front would not be; and what was copied must not stay for a page
	// (of any session: the clipboard is the browser's) to read later, nor
	// the permission for the site to read what others copy.
	_, _ = call(ctx, t, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true})
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		_ = t.clipboard(cctx, "mark", "", nil)
		_ = s.grantClipboard(cctx, t, browser.PermissionSettingPrompt)
		_, _ = call(cctx, t, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: false})
	}()
	var mark [12]byte
	_, _ = rand.Read(mark[:])
	sentinel := "waymark-clipboard-" + hex.EncodeToString(mark[:])
	if err := t.clipboard(ctx, "mark", sentinel, nil); err != nil {
		return "", "", err
	}
	evs, err := keys.Press("Control+c")
	if err != nil {
		return "", "", err
	}
	if err := keys.Dispatch(ctx, t.sess, evs); err != nil {
		return "", "", browserErr(err)
	}
	// The copy is written by the browser process after the key is
	// handled; a few reads wait for it.
	var r clipboardReply
	for tries := 0; ; tries++ {
		if err := t.clipboard(ctx, "read", "", &r); err != nil {
			return "", "", err
		}
		if r.Text != sentinel || tries == 5 {
			break
		}
		if err := sleep(ctx, 20*time.Millisecond); err != nil {
			return "", "", err
		}
	}
	if r.Text == sentinel {
		return "", "", errCopyBlocked
	}
	return r.Text, r.HTML, nil
}

// clipboard runs js/doc_clipboard.js in the main frame's isolated world.
func (t *tab) clipboard(ctx context.Context, op, sentinel string, out *clipboardReply) error {
	args, err := json.Marshal([]string{op, sentinel})
	if err != nil {
		return err
	}
	var r clipboardReply
	if err := t.evalWorld(ctx, t.sess, t.mainFrame(), "("+jsDocClipboard+")(..."+string(args)+")", &r); err != nil {
		return err
	}
	if !r.OK {
		return calls.Errorf(calls.ErrUnavailable, "the page must be shown and focused: close what covers it, or bring its tab to the front",
			"the clipboard could not be read: %s", r.Error)
	}
	if out != nil {
		*out = r
	}
	return nil
}

// grantClipboard sets whether the page's origin may read and write the
// clipboard in the session's browser context (our isolated world shares
// the page's origin, and so its permissions): granted for a read,
// back to prompt (refused without a person) after.
func (s *Session) grantClipboard(ctx context.Context, t *tab, setting browser.PermissionSetting) error {
	info, err := s.pageInfo(ctx, t)
	if err != nil {
		return err
	}
	u, err := url.Parse(info.URL)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return calls.Errorf(calls.ErrBadInput, "open the document's page first", "the page (%s) is no web page with an origin", info.URL)
	}
	bctx, cancel := context.WithCancel(s.browser.ctx)
	defer cancel()
	defer context.AfterFunc(ctx, cancel)()
	for _, name := range []string{"clipboard-read", "clipboard-write"} {
		_, err = chromedp.CallBrowser(bctx, browser.SetPermission, browser.SetPermissionParams{
			Permission:       &browser.PermissionDescriptor{Name: name},
			Setting:          setting,
			Origin:           u.Scheme + "://" + u.Host,
			BrowserContextID: s.bcid,
		})
		if err != nil {
			return browserErr(err)
		}
	}
	return nil
}
