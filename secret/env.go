package secret

import "strings"

// Environ returns the part of env (NAME=value entries, as [os.Environ]
// gives) that a process waymark starts for itself may inherit: the
// daemon a command starts, and the browser. It keeps what a program needs
// to run (PATH, HOME, the locale, the temporary and XDG folders, a
// display, a proxy, Go's runtime settings) and waymark's own settings, and
// drops everything else: model keys (OPENAI_API_KEY, ANTHROPIC_API_KEY),
// the variable a --secret reads, tokens of any kind. A kept variable
// whose value the heuristic takes for a secret (a proxy URL with a
// password) is dropped too.
//
// An allowlist, not a denylist: the variable a secret comes from can have
// any name (--secret pin=env:S), and a process that never gets it cannot
// leak it.
func Environ(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, value, ok := strings.Cut(kv, "=")
		if ok && inherited(name) && !LooksSecret(value) {
			out = append(out, kv)
		}
	}
	return out
}

// inheritedNames are the variables [Environ] keeps by name.
var inheritedNames = map[string]bool{
	"PATH": true, "HOME": true, "USER": true, "LOGNAME": true, "SHELL": true,
	"LANG": true, "LANGUAGE": true, "TZ": true, "TMPDIR": true, "TEMP": true, "TMP": true,
	"DISPLAY": true, "WAYLAND_DISPLAY": true, "XAUTHORITY": true, "DBUS_SESSION_BUS_ADDRESS": true,
	"FONTCONFIG_FILE": true, "FONTCONFIG_PATH": true, "SSL_CERT_FILE": true, "SSL_CERT_DIR": true,
	"HTTP_PROXY": true, "HTTPS_PROXY": true, "NO_PROXY": true, "ALL_PROXY": true,
	"GOCOVERDIR": true, "GOTRACEBACK": true, "GODEBUG": true, "GORACE": true, "GOMAXPROCS": true,
	// Windows needs these to start a program at all.
	"SYSTEMROOT": true, "WINDIR": true, "LOCALAPPDATA": true, "APPDATA": true, "USERPROFILE": true, "COMSPEC": true, "PATHEXT": true,
	// waymark's own settings a daemon and its browser read; WAYMARK_MODEL
	// is left out: only the command that runs a model reads it.
	"WAYMARK_SOCKET": true, "WAYMARK_SESSION": true, "WAYMARK_BROWSER": true, "WAYMARK_BROWSER_ARGS": true,
	"WAYMARK_CDP": true, "WAYMARK_PRIVATE_NETWORK": true, "WAYMARK_TEST_CHROME": true, "WAYMARK_REQUIRE_BROWSER": true,
	// where a benchmark's daemon writes its timings (internal/timing)
	"WAYMARK_TIMING": true,
}

func inherited(name string) bool {
	up := strings.ToUpper(name)
	return inheritedNames[up] || strings.HasPrefix(up, "LC_") || strings.HasPrefix(up, "XDG_")
}
