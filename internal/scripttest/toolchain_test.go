package scripttest

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
)

// script is scripts/go-toolchain.sh of this repository.
var script = filepath.Join("..", "..", "scripts", "go-toolchain.sh")

// wantVersion is the Go release go.mod names ("1.26" names 1.26.0).
func wantVersion(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(data)
	if m == nil {
		t.Fatal("go.mod has no go line")
	}
	v := string(m[1])
	if strings.Count(v, ".") == 1 {
		v += ".0"
	}
	return v
}

// noGoPath is a folder holding the tools the script uses, and no go: a
// PATH of it alone is a machine without Go.
func noGoPath(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, tool := range []string{"bash", "sh", "env", "awk", "sed", "sort", "tr", "xargs", "sha256sum", "cut", "base64",
		"find", "unzip", "curl", "mktemp", "mkdir", "rm", "mv", "chmod", "dirname", "uname", "cat", "printf", "echo", "head"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Skipf("no %s on this machine", tool)
		}
		if err := os.Symlink(p, filepath.Join(dir, tool)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// fakeGo writes a go command that says it is version v.
func fakeGo(t *testing.T, v string) string {
	t.Helper()
	dir := t.TempDir()
	body := fmt.Sprintf("#!/bin/sh\ncase \"$1 $2\" in\n'env GOVERSION') echo %s ;;\n*) echo 'go version %s fake' ;;\nesac\n", v, v)
	if err := os.WriteFile(filepath.Join(dir, "go"), []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// run runs the script with only env (and HOME) set.
func run(t *testing.T, env ...string) (stdout, stderr string, err error) {
	t.Helper()
	cmd := exec.Command("bash", script)
	cmd.Env = append([]string{"HOME=" + t.TempDir()}, env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	return out.String(), errb.String(), err
}

// h1 is the go command's module hash (dirhash Hash1) of a zip's files.
func h1(files map[string]string) string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var summary strings.Builder
	for _, n := range names {
		fmt.Fprintf(&summary, "%x  %s\n", sha256.Sum256([]byte(files[n])), n)
	}
	sum := sha256.Sum256([]byte(summary.String()))
	return "h1:" + base64.StdEncoding.EncodeToString(sum[:])
}

// fakeProxy serves a small toolchain module for this machine, and the
// checksum database's answer for it (with hash, when set, instead of the
// right one). It counts the requests.
func fakeProxy(t *testing.T, version, hash string) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	ver := fmt.Sprintf("v0.0.1-go%s.%s-%s", version, runtime.GOOS, runtime.GOARCH)
	prefix := "golang.org/toolchain@" + ver + "/"
	files := map[string]string{
		prefix + "bin/go":                    "#!/bin/sh\necho 'go version go" + version + " from the fake proxy'\n",
		prefix + "go.env":                    "GOTOOLCHAIN=auto\n",
		prefix + "pkg/tool/x/compile":        "#!/bin/sh\n",
		prefix + "src/runtime/extern.go":     "package runtime\n",
		prefix + "src/cmd/go/alldocs_test.x": "x\n",
	}
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	for n, body := range files {
		w, err := zw.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if hash == "" {
		hash = h1(files)
	}
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		switch r.URL.Path {
		case "/sumdb/sum.golang.org/lookup/golang.org/toolchain@" + ver:
			fmt.Fprintf(w, "1234\ngolang.org/toolchain %s %s\ngolang.org/toolchain %s/go.mod h1:x=\n\ngo.sum database tree\n", ver, hash, ver)
		case "/golang.org/toolchain/@v/" + ver + ".zip":
			w.Write(zb.Bytes())
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// TestGoToolchainFetched: with no Go on PATH, or a Go older than 1.21,
// the script fetches the toolchain go.mod names from the proxy, checks
// its hash against the checksum database's, and prints its bin folder; a
// Go of 1.21 or later is used as it is; a download whose hash differs is
// refused and nothing is installed.
func TestGoToolchainFetched(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("the script runs on Linux and macOS")
	}
	want := wantVersion(t)
	path := noGoPath(t)
	srv, hits := fakeProxy(t, want, "")

	root := t.TempDir()
	out, errOut, err := run(t, "PATH="+path, "GOPROXY="+srv.URL, "WAYMARK_GO_ROOT="+root)
	if err != nil {
		t.Fatalf("no Go: %v\n%s", err, errOut)
	}
	bin := strings.TrimSpace(out)
	if bin != filepath.Join(root, fmt.Sprintf("go%s.%s-%s", want, runtime.GOOS, runtime.GOARCH), "bin") {
		t.Fatalf("printed %q", out)
	}
	got, err := exec.Command(filepath.Join(bin, "go")).Output()
	if err != nil || !strings.Contains(string(got), "go version go"+want) {
		t.Errorf("the fetched go: %q, %v", got, err)
	}
	// Fetched once: a second run uses it.
	before := hits.Load()
	if out2, _, err := run(t, "PATH="+path, "GOPROXY="+srv.URL, "WAYMARK_GO_ROOT="+root); err != nil || out2 != out || hits.Load() != before {
		t.Errorf("second run: %q, %v, %d more requests", out2, err, hits.Load()-before)
	}

	// Debian 12's Go 1.19 cannot fetch it: the script does.
	old := fakeGo(t, "go1.19.8")
	root2 := t.TempDir()
	if out, errOut, err := run(t, "PATH="+old+":"+path, "GOPROXY="+srv.URL, "WAYMARK_GO_ROOT="+root2); err != nil || !strings.HasPrefix(out, root2) || !strings.Contains(errOut, "older than 1.21") {
		t.Errorf("Go 1.19: %q, %v\n%s", out, err, errOut)
	}

	// A Go of 1.21 or later fetches what it needs itself.
	recent := fakeGo(t, "go1.22.5")
	before = hits.Load()
	if out, errOut, err := run(t, "PATH="+recent+":"+path, "GOPROXY="+srv.URL, "WAYMARK_GO_ROOT="+t.TempDir()); err != nil || strings.TrimSpace(out) != recent || hits.Load() != before {
		t.Errorf("Go 1.22: %q, %v, %d requests\n%s", out, err, hits.Load()-before, errOut)
	}

	// A download that is not what the checksum database says is refused.
	bad, _ := fakeProxy(t, want, "h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=")
	root3 := t.TempDir()
	out, errOut, err = run(t, "PATH="+path, "GOPROXY="+bad.URL, "WAYMARK_GO_ROOT="+root3)
	if err == nil || out != "" || !strings.Contains(errOut, "checksum mismatch") {
		t.Errorf("a wrong hash: %q, %v\n%s", out, err, errOut)
	}
	if entries, _ := os.ReadDir(root3); len(entries) != 0 {
		t.Errorf("a refused download left %v", entries)
	}
}

// TestGoToolchainFromTheProxy fetches the real toolchain go.mod names
// from the Go module proxy (some 50 MB) with a PATH that holds no Go, and
// runs it.
func TestGoToolchainFromTheProxy(t *testing.T) {
	// Tests send traffic only to loopback: this one reaches the real module
	// proxy, so it runs only when asked (TestGoToolchainFetched covers the
	// same script against a proxy served by the test).
	if testing.Short() || os.Getenv("WAYMARK_TEST_GOPROXY") != "1" {
		t.Skip("fetches a Go toolchain from the module proxy: set WAYMARK_TEST_GOPROXY=1 to run it")
	}
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("the script runs on Linux and macOS")
	}
	want := wantVersion(t)
	out, errOut, err := run(t, "PATH="+noGoPath(t), "WAYMARK_GO_ROOT="+t.TempDir())
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	cmd := exec.Command(filepath.Join(strings.TrimSpace(out), "go"), "version")
	cmd.Env = []string{"HOME=" + t.TempDir(), "GOTOOLCHAIN=local"}
	got, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(got), "go"+want+" ") {
		t.Errorf("go version: %q, %v", got, err)
	}
}
