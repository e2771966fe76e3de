package cmdutil

import (
	"path/filepath"
	"strings"

	"github.com/waymark-dev/waymark/internal/lazyre"
)

// SessionName is what a session may be called: it may name files and
// folders in the daemon's state.
var SessionName = lazyre.New(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// Check validates and normalizes the global flags. Paths become absolute
// because the daemon may run in another directory.
func (g *GlobalOptions) Check() error {
	if !SessionName.MatchString(g.Session) {
		return UsageErrorf("use letters, digits, '.', '_' or '-' (up to 64)", "bad session name %q", g.Session)
	}
	if g.CDP != "" && !ValidCDP(g.CDP) {
		return UsageErrorf("give a port (9222) or a URL (ws://127.0.0.1:9222/devtools/browser/…, http://127.0.0.1:9222)", "bad --cdp %q", g.CDP)
	}
	// A bare name ("chromium") is looked up on PATH; anything with a
	// separator is a path relative to here.
	if g.ExecutablePath != "" && strings.ContainsRune(g.ExecutablePath, filepath.Separator) {
		p, err := filepath.Abs(g.ExecutablePath)
		if err != nil {
			return err
		}
		g.ExecutablePath = p
	}
	if g.Socket != "" {
		p, err := filepath.Abs(g.Socket)
		if err != nil {
			return err
		}
		g.Socket = p
	}
	return nil
}

var cdpPort = lazyre.New(`^[0-9]{1,5}$`)

func ValidCDP(s string) bool {
	if cdpPort.MatchString(s) {
		return true
	}
	for _, scheme := range []string{"ws://", "wss://", "http://", "https://"} {
		if strings.HasPrefix(s, scheme) && len(s) > len(scheme) {
			return true
		}
	}
	return false
}
