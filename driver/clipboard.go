package driver

import (
	"context"
	"net/url"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/clipboard"
	"github.com/waymark-dev/waymark/internal/keys"
)

// The clipboard's session side: the copy itself is the room's
// (internal/clipboard); the permission in the session's browser context
// is granted here, and the keys a sheet or document presses go with the
// tab's session.

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
	text, html, err = clipboard.Copy(ctx, t, func(ctx context.Context, setting browser.PermissionSetting) error {
		return s.grantClipboard(ctx, t, setting)
	})
	return text, html, browserErr(err)
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
