package driver

import (
	"context"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
)

// Clipboard reads (or, with set, first writes) the clipboard of the
// session's current page, as the sheet calls do, for tests.
func Clipboard(ctx context.Context, s *Session, set *string) (string, error) {
	t, err := s.current(ctx)
	if err != nil {
		return "", err
	}
	if err := s.grantClipboard(ctx, t, browser.PermissionSettingGranted); err != nil {
		return "", err
	}
	if _, err := call(ctx, t, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
		return "", err
	}
	defer call(context.WithoutCancel(ctx), t, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: false})
	if set != nil {
		if err := t.clipWrite(ctx, *set, "<b>"+*set+"</b>"); err != nil {
			return "", err
		}
	}
	c, err := t.clipRead(ctx)
	return c.Text, err
}
