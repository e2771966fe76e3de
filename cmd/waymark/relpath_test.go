package main_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/internal/browsertest"
)

// applyPage is a form with two file fields that posts them; the server
// keeps what it received, so a test counts the bytes that reached it,
// not what waymark says it uploaded.
const applyPage = `<!doctype html><title>Apply</title>
<form method=post action=/apply enctype=multipart/form-data>
<label>Resume <input type=file name=resume></label>
<label>Cover letter <input type=file name=cover></label>
<button type=submit>Send</button>
</form>`

type applyServer struct {
	mu   sync.Mutex
	got  map[string]string // the last submission: field → the file's content
	sent int
}

func (s *applyServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		fmt.Fprint(w, applyPage)
		return
	}
	got := map[string]string{}
	if err := r.ParseMultipartForm(1 << 20); err == nil {
		for name, fhs := range r.MultipartForm.File {
			if f, err := fhs[0].Open(); err == nil {
				b, _ := io.ReadAll(f)
				f.Close()
				got[name] = string(b)
			}
		}
	}
	s.mu.Lock()
	s.got, s.sent = got, s.sent+1
	s.mu.Unlock()
	fmt.Fprint(w, `<!doctype html><title>Thanks</title><p>Received</p>`)
}

func (s *applyServer) last() (map[string]string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.got, s.sent
}

// TestRelativeUploadPaths: a relative path to upload is read from the
// folder of whoever wrote it, never from the daemon's, which is wherever
// its first command ran. The daemon starts in a folder holding files of
// the same names ("daemon's folder"); the commands run in another
// (the user's working folder); the routines and an answers file lie in a
// third. The server says which file arrived.
func TestRelativeUploadPaths(t *testing.T) {
	t.Parallel()
	c := newCLI(t, "relpaths")
	srv := &applyServer{}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	root := t.TempDir()
	daemonDir, work, files := filepath.Join(root, "daemon"), filepath.Join(root, "work"), filepath.Join(root, "files")
	write := func(dir, name, content string) {
		t.Helper()
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []struct{ dir, says string }{{daemonDir, "daemon's folder"}, {work, "working folder"}, {files, "files folder"}} {
		write(d.dir, "cv.txt", "cv from the "+d.says)
		write(d.dir, "letter.txt", "letter from the "+d.says)
	}
	// The daemon starts here, and keeps this folder.
	c.dir = daemonDir
	c.ok("open", hs.URL+"/")
	c.dir = work
	// sub is the cli for a subtest: its failures stop the subtest.
	sub := func(t *testing.T) *cli {
		cc := *c
		cc.t = t
		return &cc
	}
	send := func(t *testing.T, want map[string]string) {
		t.Helper()
		c := sub(t)
		_, before := srv.last()
		c.ok("click", "text=Send")
		c.ok("wait", "--text", "Received")
		got, n := srv.last()
		if n != before+1 {
			t.Fatalf("%d submissions, want one", n-before)
		}
		for field, w := range want {
			if got[field] != w {
				t.Errorf("%s arrived as %q, want %q", field, got[field], w)
			}
		}
	}

	t.Run("form fill reads beside the answers file", func(t *testing.T) {
		c := sub(t)
		write(files, "answers.json", `{"resume": "cv.txt"}`)
		c.ok("open", hs.URL+"/")
		c.ok("form", "fill", filepath.Join("..", "files", "answers.json"))
		send(t, map[string]string{"resume": "cv from the files folder"})
	})

	t.Run("form fill from stdin reads the working folder", func(t *testing.T) {
		c := sub(t)
		c.ok("open", hs.URL+"/")
		cmd := exec.Command(binPath, "form", "fill", "-")
		cmd.Dir, cmd.Stdin = work, strings.NewReader(`{"resume": "cv.txt"}`)
		cmd.Env = append(os.Environ(), "WAYMARK_SOCKET="+c.socket, "WAYMARK_BROWSER_ARGS="+strings.Join(browsertest.GuardArgs, "\n"),
			"XDG_STATE_HOME="+filepath.Join(sockDir, "state"))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("form fill -: %v\n%s", err, out)
		}
		send(t, map[string]string{"resume": "cv from the working folder"})
	})

	// A routine's own path is read beside the routine; a variable's value
	// from where --var was typed.
	target := func(label string) string {
		return fmt.Sprintf(`{"locator": "label=%s", "fingerprint": {"tag": "input", "role": "button", "name": %q, "type": "file", "index": 0}}`, label, label)
	}
	write(files, "upload.json", `{"format": "waymark.routine/1", "name": "apply", "version": 1,
  "variables": [{"name": "letter"}],
  "steps": [
    {"kind": "goto", "url": "`+hs.URL+`/"},
    {"kind": "act", "op": "upload", "target": `+target("Resume")+`, "value": {"literal": "cv.txt"}},
    {"kind": "act", "op": "upload", "target": `+target("Cover letter")+`, "value": {"from": "input", "slot": "letter"}}
  ]}`)
	write(files, "form.json", `{"format": "waymark.routine/1", "name": "apply by form", "version": 1,
  "variables": [{"name": "letter"}],
  "steps": [
    {"kind": "goto", "url": "`+hs.URL+`/"},
    {"kind": "form", "answers": {"resume": {"literal": "cv.txt"}, "Cover letter": {"from": "input", "slot": "letter"}}}
  ]}`)
	for _, name := range []string{"upload.json", "form.json"} {
		t.Run("replay "+name, func(t *testing.T) {
			c := sub(t)
			c.ok("replay", "--no-model", filepath.Join("..", "files", name), "--var", "letter=letter.txt")
			send(t, map[string]string{"resume": "cv from the files folder", "cover": "letter from the working folder"})
		})
	}

	// An MCP client's paths have no folder: neither the daemon's nor the
	// server's (started here, where cv.txt exists) is the client's.
	t.Run("mcp", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		cmd := exec.Command(binPath, "mcp")
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "WAYMARK_SOCKET="+c.socket, "WAYMARK_BROWSER_ARGS="+strings.Join(browsertest.GuardArgs, "\n"))
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		call := func(tool string, args map[string]any) (string, bool) {
			t.Helper()
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
			if err != nil {
				t.Fatalf("%s: %v", tool, err)
			}
			var text []string
			for _, c := range res.Content {
				if tc, ok := c.(*sdk.TextContent); ok {
					text = append(text, tc.Text)
				}
			}
			return strings.Join(text, "\n"), res.IsError
		}
		if text, isErr := call("navigate", map[string]any{"url": hs.URL + "/"}); isErr {
			t.Fatalf("navigate: %s", text)
		}
		for _, tt := range []struct {
			tool string
			args map[string]any
		}{
			{"form_fill", map[string]any{"answers": map[string]string{"resume": "cv.txt"}}},
			{"upload", map[string]any{"target": "label=Resume", "files": []string{"cv.txt"}}},
		} {
			text, isErr := call(tt.tool, tt.args)
			if !isErr {
				t.Errorf("%s with a relative path was taken:\n%s", tt.tool, text)
				continue
			}
			for _, w := range []string{"code: bad_input", "cannot upload cv.txt: the path is relative", "give the whole path, e.g. /"} {
				if !strings.Contains(text, w) {
					t.Errorf("%s's refusal lacks %q:\n%s", tt.tool, w, text)
				}
			}
			if strings.Contains(text, daemonDir) || strings.Contains(text, work) {
				t.Errorf("%s's refusal names a folder that is not the client's:\n%s", tt.tool, text)
			}
		}
		if text, isErr := call("form", map[string]any{}); isErr || strings.Contains(text, "cv.txt") {
			t.Errorf("the refused calls left a file in a field:\n%s", text)
		}
	})
}
