package browser

import (
	"errors"
	"path"
	"slices"
	"strings"
	"testing"
)

// fakeHost is a system whose files are tree and whose PATH folders are
// pathDirs.
func fakeHost(goos string, env map[string]string, pathDirs []string, tree ...string) host {
	isFile := func(p string) bool { return slices.Contains(tree, p) }
	sep := "/"
	if goos == "windows" {
		sep = `\`
	}
	return host{
		goos:   goos,
		getenv: func(k string) string { return env[k] },
		isFile: isFile,
		lookPath: func(name string) (string, error) {
			if strings.ContainsAny(name, `/\`) {
				if isFile(name) {
					return name, nil
				}
				return "", errors.New("not found")
			}
			for _, d := range pathDirs {
				if p := d + sep + name; isFile(p) {
					return p, nil
				}
			}
			return "", errors.New("not found")
		},
		glob: func(pattern string) []string {
			var out []string
			for _, f := range tree {
				if ok, _ := path.Match(strings.ReplaceAll(pattern, `\`, "/"), strings.ReplaceAll(f, `\`, "/")); ok {
					out = append(out, f)
				}
			}
			slices.Sort(out)
			return out
		},
	}
}

// TestFind: Chrome, Chromium, Edge and Brave are found where their
// installers put them on Linux, macOS and Windows (per machine and per
// user), and Playwright's Chromium; Chromium and Chrome come first.
func TestFind(t *testing.T) {
	winEnv := map[string]string{
		"ProgramFiles":      `C:\Program Files`,
		"ProgramFiles(x86)": `C:\Program Files (x86)`,
		"LocalAppData":      `C:\Users\ann\AppData\Local`,
	}
	macEnv := map[string]string{"HOME": "/Users/ann"}
	linuxEnv := map[string]string{"HOME": "/home/ann"}
	tests := []struct {
		name string
		goos string
		env  map[string]string
		path []string
		tree []string
		want string
	}{
		{"linux chromium on PATH", "linux", linuxEnv, []string{"/usr/bin"}, []string{"/usr/bin/chromium", "/usr/bin/google-chrome"}, "/usr/bin/chromium"},
		{"linux chrome", "linux", linuxEnv, []string{"/usr/bin"}, []string{"/usr/bin/google-chrome-stable"}, "/usr/bin/google-chrome-stable"},
		{"linux chrome off PATH", "linux", linuxEnv, nil, []string{"/opt/google/chrome/chrome"}, "/opt/google/chrome/chrome"},
		{"linux edge", "linux", linuxEnv, []string{"/usr/bin"}, []string{"/usr/bin/microsoft-edge-stable"}, "/usr/bin/microsoft-edge-stable"},
		{"linux edge off PATH", "linux", linuxEnv, nil, []string{"/opt/microsoft/msedge/msedge"}, "/opt/microsoft/msedge/msedge"},
		{"linux brave", "linux", linuxEnv, []string{"/usr/bin"}, []string{"/usr/bin/brave-browser"}, "/usr/bin/brave-browser"},
		{"linux brave off PATH", "linux", linuxEnv, nil, []string{"/opt/brave.com/brave/brave"}, "/opt/brave.com/brave/brave"},
		{"linux snap", "linux", linuxEnv, nil, []string{"/snap/bin/chromium"}, "/snap/bin/chromium"},
		{"linux playwright", "linux", linuxEnv, nil, []string{"/home/ann/.cache/ms-playwright/chromium-1100/chrome-linux/chrome", "/home/ann/.cache/ms-playwright/chromium-1200/chrome-linux/chrome"},
			"/home/ann/.cache/ms-playwright/chromium-1200/chrome-linux/chrome"},
		{"linux chrome before edge", "linux", linuxEnv, []string{"/usr/bin"}, []string{"/usr/bin/microsoft-edge", "/usr/bin/google-chrome"}, "/usr/bin/google-chrome"},
		{"mac chrome", "darwin", macEnv, nil, []string{"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"}, "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"},
		{"mac chromium first", "darwin", macEnv, nil, []string{"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome", "/Applications/Chromium.app/Contents/MacOS/Chromium"},
			"/Applications/Chromium.app/Contents/MacOS/Chromium"},
		{"mac edge", "darwin", macEnv, nil, []string{"/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge"}, "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge"},
		{"mac brave", "darwin", macEnv, nil, []string{"/Applications/Brave Browser.app/Contents/MacOS/Brave Browser"}, "/Applications/Brave Browser.app/Contents/MacOS/Brave Browser"},
		{"mac per user", "darwin", macEnv, nil, []string{"/Users/ann/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"}, "/Users/ann/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"},
		{"windows chrome", "windows", winEnv, nil, []string{`C:\Program Files\Google\Chrome\Application\chrome.exe`}, `C:\Program Files\Google\Chrome\Application\chrome.exe`},
		{"windows chrome 32-bit", "windows", winEnv, nil, []string{`C:\Program Files (x86)\Google\Chrome\Application\chrome.exe`}, `C:\Program Files (x86)\Google\Chrome\Application\chrome.exe`},
		{"windows chrome per user", "windows", winEnv, nil, []string{`C:\Users\ann\AppData\Local\Google\Chrome\Application\chrome.exe`}, `C:\Users\ann\AppData\Local\Google\Chrome\Application\chrome.exe`},
		{"windows chromium", "windows", winEnv, nil, []string{`C:\Users\ann\AppData\Local\Chromium\Application\chrome.exe`}, `C:\Users\ann\AppData\Local\Chromium\Application\chrome.exe`},
		{"windows edge", "windows", winEnv, nil, []string{`C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe`}, `C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe`},
		{"windows brave", "windows", winEnv, nil, []string{`C:\Program Files\BraveSoftware\Brave-Browser\Application\brave.exe`}, `C:\Program Files\BraveSoftware\Brave-Browser\Application\brave.exe`},
		{"windows chrome before edge", "windows", winEnv, nil, []string{`C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe`, `C:\Program Files\Google\Chrome\Application\chrome.exe`},
			`C:\Program Files\Google\Chrome\Application\chrome.exe`},
		{"windows on PATH", "windows", winEnv, []string{`C:\tools`}, []string{`C:\tools\chrome.exe`}, `C:\tools\chrome.exe`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := fakeHost(tt.goos, tt.env, tt.path, tt.tree...).find("")
			if err != nil || got != tt.want {
				t.Errorf("find = %q, %v; want %q", got, err, tt.want)
			}
		})
	}

	// Nothing installed: the error says where it looked, Edge and Brave
	// included.
	for goos, env := range map[string]map[string]string{"linux": linuxEnv, "darwin": macEnv, "windows": winEnv} {
		_, err := fakeHost(goos, env, nil).find("")
		var nf *NotFoundError
		if !errors.As(err, &nf) || !errors.Is(err, ErrNotFound) {
			t.Fatalf("%s: %v", goos, err)
		}
		all := strings.ToLower(strings.Join(nf.Looked, "\n"))
		for _, want := range []string{"chrom", "edge", "brave"} {
			if !strings.Contains(all, want) {
				t.Errorf("%s: looked in no %s place: %v", goos, want, nf.Looked)
			}
		}
	}

	// An explicit path wins, and must exist.
	h := fakeHost("linux", linuxEnv, []string{"/usr/bin"}, "/usr/bin/chromium", "/opt/my/chrome")
	if got, err := h.find("/opt/my/chrome"); err != nil || got != "/opt/my/chrome" {
		t.Errorf("explicit: %q, %v", got, err)
	}
	if _, err := h.find("/opt/none"); !errors.Is(err, ErrNotFound) {
		t.Errorf("explicit missing: %v", err)
	}
}
