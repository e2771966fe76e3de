package driver

import (
	"context"

	"github.com/chromedp/cdproto/browser"

	"github.com/waymark-dev/waymark/driver/internal/clipboard"
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
	restore, err := clipboard.Focus(ctx, t)
	if err != nil {
		return "", browserErr(err)
	}
	defer restore()
	if set != nil {
		if err := clipboard.Write(ctx, t, *set, "<b>"+*set+"</b>"); err != nil {
			return "", err
		}
	}
	c, err := clipboard.Read(ctx, t)
	return c.Text, err
}
