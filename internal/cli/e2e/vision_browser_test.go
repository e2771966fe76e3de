package e2e

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmd/pilot"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/config"
	"github.com/waymark-dev/waymark/internal/sessions"
)

// `waymark act --vision always`, through the command's flags and the
// configuration file, against a loopback server that speaks Anthropic's
// Messages API: the request carries the view's PNG as an image block
// with a base64 source; with the file's [model] vision = "never" and no
// flag, none; a vision that is no way is a usage error.
func TestActVisionAlwaysReachesAnthropic(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var mu sync.Mutex
	var bodies []map[string]any
	preview := regexp.MustCompile(`button \\?"Preview\\?" \[ref=(e\d+)\]`)
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		json.Unmarshal(raw, &body)
		mu.Lock()
		bodies = append(bodies, body)
		mu.Unlock()
		ref := "e0"
		if m := preview.FindSubmatch(raw); m != nil {
			ref = string(m[1])
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"msg_1","type":"message","role":"assistant","model":"claude-test",
			"content":[{"type":"tool_use","id":"toolu_1","name":"step","input":{"action":"click","ref":"`+ref+`"}}],
			"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":5}}`)
	}))
	defer api.Close()
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<!doctype html><title>Note</title><h1>A note</h1><p>Write a short note below and look at it before you keep it.</p>
<label>Note <textarea></textarea></label><button type=button>Preview</button>`)
	}))
	defer page.Close()

	dir := t.TempDir()
	toml := "[model]\nprovider = \"anthropic\"\nbase_url = \"" + api.URL + "\"\nvision = \"never\"\n"
	if err := os.WriteFile(filepath.Join(dir, config.ProjectFile), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"ANTHROPIC_API_KEY": "sk-ant-test"}
	getenv := func(k string) string { return env[k] }
	m := sessions.NewShared(drivertest.Driver(t))
	defer m.Close()
	f, _, _, _ := clitest.NewFactory(m)
	f.Session = t.Name() // its own in the shared browser
	f.Getenv = getenv
	f.Config = func() (*config.Config, error) { return config.Load(config.LoadOptions{Getenv: getenv, Dir: dir}) }
	common := f.Common()
	if _, err := common.Remote().Open(ctx, calls.OpenRequest{URL: page.URL}); err != nil {
		t.Fatal(err)
	}
	act := func(args ...string) error {
		cmd := pilot.NewCmdAct(f, nil)
		cmd.SetFlagErrorFunc(cmdutil.FlagError)
		cmd.SetArgs(args)
		cmd.SetOut(io.Discard)
		cmd.SetErr(io.Discard)
		return cmd.ExecuteContext(ctx)
	}
	images := func() []int {
		mu.Lock()
		defer mu.Unlock()
		var n []int
		for _, b := range bodies {
			k := 0
			for _, msg := range b["messages"].([]any) {
				parts, _ := msg.(map[string]any)["content"].([]any)
				for _, p := range parts {
					pm := p.(map[string]any)
					if pm["type"] != "image" {
						continue
					}
					src := pm["source"].(map[string]any)
					data, err := base64.StdEncoding.DecodeString(src["data"].(string))
					if src["type"] != "base64" || src["media_type"] != "image/png" || err != nil || !strings.HasPrefix(string(data), "\x89PNG") {
						t.Errorf("image block %v is not a base64 PNG", src["type"])
					}
					k++
				}
			}
			n = append(n, k)
		}
		return n
	}

	if err := act("click Preview", "--vision", "always"); err != nil {
		t.Fatal(err)
	}
	if got := images(); len(got) != 1 || got[0] != 1 {
		t.Fatalf("act --vision always: pictures per request %v; want [1]", got)
	}
	if err := act("click Preview"); err != nil {
		t.Fatal(err)
	}
	if got := images(); len(got) != 2 || got[1] != 0 {
		t.Errorf("act with [model] vision = \"never\": pictures per request %v; want [1 0]", got)
	}
	var ue *cmdutil.UsageError
	if err := act("click Preview", "--vision", "sometimes"); !errors.As(err, &ue) {
		t.Errorf("--vision sometimes: %v; want a usage error", err)
	}
}
