package scripttest

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

// installScript is scripts/install.sh of this repository.
var installScript = filepath.Join("..", "..", "scripts", "install.sh")

// release is a release folder as scripts/release.sh writes it, for this
// machine only, with two small programs standing in for the binaries.
type release struct {
	dir, version string
	files        map[string]string // name → content
}

func newRelease(t *testing.T, version string) *release {
	t.Helper()
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("install.sh is for Linux and macOS")
	}
	r := &release{dir: t.TempDir(), version: version, files: map[string]string{}}
	suffix := version + "-" + runtime.GOOS + "-" + runtime.GOARCH
	r.files["waymark-"+suffix] = "#!/bin/sh\necho front " + version + "\n"
	r.files["waymark-full-"+suffix] = "#!/bin/sh\necho full " + version + "\n"
	r.files["waymark-full-"+version+"-windows-amd64.exe"] = "MZ"
	r.write(t)
	return r
}

// write writes the files, SHA256SUMS of them and VERSION.
func (r *release) write(t *testing.T) {
	t.Helper()
	var sums strings.Builder
	for name, body := range r.files {
		if err := os.WriteFile(filepath.Join(r.dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256([]byte(body))
		sums.WriteString(hex.EncodeToString(sum[:]) + "  " + name + "\n")
	}
	for name, body := range map[string]string{"SHA256SUMS": sums.String(), "VERSION": r.version + "\n"} {
		if err := os.WriteFile(filepath.Join(r.dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// install runs install.sh with args, the release served over HTTP on
// loopback; it returns the combined output and the number of requests
// the server answered.
func install(t *testing.T, r *release, args ...string) (string, int64, error) {
	t.Helper()
	var hits atomic.Int64
	files := http.FileServer(http.Dir(r.dir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		hits.Add(1)
		files.ServeHTTP(w, req)
	}))
	defer srv.Close()
	cmd := exec.Command("sh", append([]string{installScript, "--base", srv.URL}, args...)...)
	cmd.Env = []string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH")}
	out, err := cmd.CombinedOutput()
	return string(out), hits.Load(), err
}

func TestInstallChecksAndInstallsBoth(t *testing.T) {
	r := newRelease(t, "v9.8.7")
	dir := filepath.Join(t.TempDir(), "bin")
	out, hits, err := install(t, r, "--dir", dir)
	if err != nil {
		t.Fatalf("install: %v\n%s", err, out)
	}
	if hits < 4 { // VERSION, SHA256SUMS, two binaries
		t.Errorf("the release server answered %d requests, want 4", hits)
	}
	for name, want := range map[string]string{"waymark": "front v9.8.7", "waymark-full": "full v9.8.7"} {
		got, err := exec.Command(filepath.Join(dir, name)).Output()
		if err != nil || strings.TrimSpace(string(got)) != want {
			t.Errorf("%s runs as %q (%v), want %q", name, got, err, want)
		}
	}
	if !strings.Contains(out, "checked against SHA256SUMS") {
		t.Errorf("output does not say the files were checked:\n%s", out)
	}
}

func TestInstallRefusesWhatTheSumsDoNotVouchFor(t *testing.T) {
	suffix := "-" + runtime.GOOS + "-" + runtime.GOARCH
	for _, tc := range []struct {
		name   string
		spoil  func(r *release)
		reason string
	}{
		{"a binary changed after the sums", func(r *release) {
			os.WriteFile(filepath.Join(r.dir, "waymark-full-v1.0.0"+suffix), []byte("#!/bin/sh\necho evil\n"), 0o644)
		}, "does not match SHA256SUMS"},
		{"a binary the sums do not name", func(r *release) {
			sums, _ := os.ReadFile(filepath.Join(r.dir, "SHA256SUMS"))
			var keep []string
			for _, l := range strings.Split(string(sums), "\n") {
				if !strings.HasSuffix(l, "waymark-v1.0.0"+suffix) {
					keep = append(keep, l)
				}
			}
			os.WriteFile(filepath.Join(r.dir, "SHA256SUMS"), []byte(strings.Join(keep, "\n")), 0o644)
		}, "SHA256SUMS names no"},
		{"no SHA256SUMS", func(r *release) { os.Remove(filepath.Join(r.dir, "SHA256SUMS")) }, "no SHA256SUMS"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRelease(t, "v1.0.0")
			tc.spoil(r)
			dir := filepath.Join(t.TempDir(), "bin")
			out, _, err := install(t, r, "--dir", dir)
			if err == nil {
				t.Fatalf("installed anyway:\n%s", out)
			}
			if !strings.Contains(out, tc.reason) {
				t.Errorf("output does not say why (%q):\n%s", tc.reason, out)
			}
			if ents, _ := os.ReadDir(dir); len(ents) > 0 {
				t.Errorf("left %d files in %s", len(ents), dir)
			}
		})
	}
}

func TestInstallSaysWhatIsWrongWithItsArguments(t *testing.T) {
	r := newRelease(t, "v1.0.0")
	out, _, err := install(t, r, "--frobnicate")
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(out, "unknown option --frobnicate") {
		t.Errorf("unknown option: %v\n%s", err, out)
	}
	out, _, err = install(t, r, "--version", "../../etc", "--dir", t.TempDir())
	if err == nil || !strings.Contains(out, "not a version") {
		t.Errorf("a version with a slash: %v\n%s", err, out)
	}
}
