package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/waymark-dev/waymark/internal/cli"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/batch"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/root"
	"github.com/waymark-dev/waymark/internal/rpc"
)

// envelopeSchema is cli.EnvelopeSchema, resolved.
func envelopeSchema(t *testing.T) *jsonschema.Resolved {
	t.Helper()
	var s jsonschema.Schema
	if err := json.Unmarshal(cli.EnvelopeSchema, &s); err != nil {
		t.Fatalf("envelope.schema.json: %v", err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("resolve envelope.schema.json: %v", err)
	}
	return rs
}

// snakeKey is a snake_case key; config show's values are keyed by
// config keys, snake_case words joined by dots.
var snakeKey = regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$`)

// checkKeys fails on a key that is not snake_case or a duration that is
// not in milliseconds, anywhere in v.
func checkKeys(t *testing.T, where string, v any) {
	t.Helper()
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if !snakeKey.MatchString(k) {
				t.Errorf("%s: key %q is not snake_case", where, k)
			}
			if (strings.Contains(k, "duration") || strings.HasPrefix(k, "dur")) && !strings.HasSuffix(k, "_ms") {
				t.Errorf("%s: duration %q is not in milliseconds (name it …_ms)", where, k)
			}
			checkKeys(t, where+"."+k, e)
		}
	case []any:
		for _, e := range x {
			checkKeys(t, where+"[]", e)
		}
	}
}

// checkJSONOutput checks that stdout is JSON Lines of events ending with
// one envelope, each line valid against the schema, and returns the
// envelope.
func checkJSONOutput(t *testing.T, rs *jsonschema.Resolved, name, stdout string) map[string]any {
	t.Helper()
	lines := strings.Split(strings.TrimRight(stdout, "\n"), "\n")
	var last map[string]any
	for i, line := range lines {
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Errorf("%s: line %d is not a JSON object: %v\n%s", name, i+1, err, line)
			return nil
		}
		if err := rs.Validate(v); err != nil {
			t.Errorf("%s: line %d does not fit the schema: %v\n%s", name, i+1, err, line)
		}
		checkKeys(t, name, v)
		_, isEnv := v["ok"]
		if isEnv != (i == len(lines)-1) {
			t.Errorf("%s: line %d: the envelope must be the last line, and only it\n%s", name, i+1, stdout)
		}
		last = v
	}
	return last
}

// fakeOpenAI is an OpenAI-compatible server on loopback whose every
// answer is answer(the system prompt): enough for the model commands to
// succeed against it.
func fakeOpenAI(t *testing.T, answer func(system string) string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct {
				Role    string `json:"role"`
				Content any    `json:"content"`
			} `json:"messages"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		system := ""
		for _, m := range req.Messages {
			if m.Role == "system" {
				system = fmt.Sprint(m.Content)
			}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "c1", "object": "chat.completion", "model": "fake",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": answer(system)}}},
			"usage": map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
		})
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// restartReply answers like a daemon that stops when asked, and a new one
// that starts.
func restartReply() func(string, any) (any, error) {
	var stopped atomic.Bool
	return func(method string, params any) (any, error) {
		switch method {
		case rpc.MethodDaemonStop:
			stopped.Store(true)
			return calls.Empty{}, nil
		case rpc.MethodDaemonStatus:
			if stopped.CompareAndSwap(true, false) {
				return nil, fmt.Errorf("%w: gone", cmdutil.ErrNoDaemon)
			}
		}
		return clitest.PageReply(method, params)
	}
}

// clickedReply is clitest.PageReply whose page says Done! once something was
// clicked.
func clickedReply() func(string, any) (any, error) {
	var clicked atomic.Bool
	return func(method string, params any) (any, error) {
		switch method {
		case calls.MethodAct:
			clicked.Store(true)
		case calls.MethodSnapshot:
			if clicked.Load() {
				return calls.Snapshot{URL: "http://shop.test/", Title: "Shop", Text: "- button \"Go\" [ref=e1]\n- text \"Done!\""}, nil
			}
		}
		return clitest.PageReply(method, params)
	}
}

// jsonCase is one command run with --json.
type jsonCase struct {
	args   []string
	env    map[string]string
	reply  func(method string, params any) (any, error) // nil: clitest.PageReply
	wantOK bool
}

// TestJSONContract runs every command with --json, once to succeed and
// once to fail, and checks each line against envelope.schema.json: one
// envelope last, events before it, snake_case keys, durations in ms.
func TestJSONContract(t *testing.T) {
	rs := envelopeSchema(t)
	dir := t.TempDir()
	t.Chdir(dir)
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	routineFile := write("r.json", clitest.CheckoutRoutine)
	recipeFile := write("rows.recipe.json", `{"format":"waymark.recipe/1","container":"table","row":"tr","fields":[{"name":"name","type":"string","by":"header","header":"Name"}]}`)
	planFile := write("plan.yaml", clitest.CLIPlan)
	schemaFile := write("schema.json", `{"type":"object","properties":{"title":{"type":"string"}}}`)
	stateFile := write("state.json", `{"format":"`+calls.StateFormat+`","cookies":[]}`)
	upFile := write("up.txt", "x")
	answersFile := write("answers.json", `{"email": "ann@example.com", "remote": true}`)
	rowsFile := write("rows.jsonl", `{"email":"a@b.c","password":{"secret":"env:PW"}}`+"\n")
	netlogFile := write("netlog.json", cliNetlog)
	captureFile := write("shop.capture.json", `{"format":"waymark.capture/1","started":"2026-12-01T00:00:00Z","stopped":"2026-12-01T00:01:00Z","exchanges":[{"id":"1","kind":"fetch","method":"GET","url":"http://shop.test/api/items","page":"http://shop.test/","status":200,"response_body":"{\"items\":[{\"title\":\"Go\"}]}","sent":"2026-12-01T00:00:01Z"}]}`)
	apiRowsFile := write("api-rows.json", `[{"title":"Go"}]`)
	apiRecipeFile := write("shop.api.json", `{"format":"waymark.api/1","site":"http://shop.test","page":"http://shop.test/","request":{"method":"GET","url":"http://shop.test/api/items"},"rows":"/items","fields":[{"name":"title","path":"/title"}]}`)
	traceFile := write("trace.json", `{"format":"`+calls.TraceFormat+`","session":"s","started_unix_ms":1,"duration_ms":2,"entries":[{"index":1,"method":"open","params":{"url":"http://shop.test/"},"started_unix_ms":1,"duration_ms":1,"ok":true}]}`)
	var decided atomic.Int32
	model := fakeOpenAI(t, func(system string) string {
		switch {
		case strings.Contains(system, "read data"):
			return `{"title":"Go"}`
		case strings.Contains(system, "candidates"), strings.Contains(system, "which elements"):
			return `{"candidates":[{"ref":"e1","description":"the Go button","action":"goes"}]}`
		case strings.Contains(system, "task"):
			if decided.Add(1)%2 == 1 {
				return `{"thought":"press Go","action":{"type":"act","op":"click","ref":"e1","expect":{"text_appears":"Done!"}}}`
			}
			return `{"thought":"it says done","action":{"type":"done"}}`
		}
		return `{"action":"click","ref":"e1","reason":"Go"}`
	})
	withModel := map[string]string{"OPENAI_BASE_URL": model, "WAYMARK_MODEL": "openai:fake"}
	fail := func(string, any) (any, error) {
		return nil, calls.Errorf(calls.ErrNoMatch, "look again", "no element matches")
	}

	cases := map[string][]jsonCase{
		"act":                   {{args: []string{"act", "click Go"}, wantOK: true}, {args: []string{"act", "click Go"}, reply: fail}},
		"batch":                 {{args: []string{"batch", routineFile, "--inputs", rowsFile, "--allow-submit"}, reply: batchReply(batch.StatusOK), wantOK: true}, {args: []string{"batch", routineFile, "--inputs", rowsFile}, reply: batchReply(batch.StatusFailed)}},
		"batch status":          {{args: []string{"batch", "status"}, reply: batchReply(batch.StatusOK), wantOK: true}, {args: []string{"batch", "status", "b1"}, reply: fail}},
		"batch results":         {{args: []string{"batch", "results", "b1"}, reply: batchReply(batch.StatusOK), wantOK: true}, {args: []string{"batch", "results", "b1"}, reply: fail}},
		"batch cancel":          {{args: []string{"batch", "cancel", "b1"}, reply: batchReply(batch.StatusOK), wantOK: true}, {args: []string{"batch", "cancel", "b1"}, reply: fail}},
		"batch resume":          {{args: []string{"batch", "resume", "b1"}, reply: batchReply(batch.StatusOK), wantOK: true}, {args: []string{"batch", "resume", "b1"}, reply: fail}},
		"worker":                {{args: []string{"worker", "--nats", "http://not-nats"}}},
		"back":                  {{args: []string{"back"}, wantOK: true}, {args: []string{"back"}, reply: fail}},
		"check":                 {{args: []string{"check", "e1"}, wantOK: true}, {args: []string{"check", "e1"}, reply: fail}},
		"click":                 {{args: []string{"click", "e1"}, wantOK: true}, {args: []string{"click", "e1"}, reply: fail}},
		"close":                 {{args: []string{"close"}, wantOK: true}, {args: []string{"close"}, reply: fail}},
		"config show":           {{args: []string{"config", "show"}, wantOK: true}, {args: []string{"config", "show", "--bogus"}}},
		"cookies get":           {{args: []string{"cookies", "get"}, wantOK: true}, {args: []string{"cookies", "get"}, reply: fail}},
		"cookies set":           {{args: []string{"cookies", "set", "a", "b"}, wantOK: true}, {args: []string{"cookies", "set", "a", "b"}, reply: fail}},
		"cookies clear":         {{args: []string{"cookies", "clear"}, wantOK: true}, {args: []string{"cookies", "clear"}, reply: fail}},
		"daemon restart":        {{args: []string{"daemon", "restart"}, reply: restartReply(), wantOK: true}, {args: []string{"daemon", "restart"}, reply: fail}},
		"daemon status":         {{args: []string{"daemon", "status"}, wantOK: true}, {args: []string{"daemon", "status"}, reply: fail}},
		"daemon stop":           {{args: []string{"daemon", "stop"}, wantOK: true}, {args: []string{"daemon", "stop"}, reply: fail}},
		"dblclick":              {{args: []string{"dblclick", "e1"}, wantOK: true}, {args: []string{"dblclick", "e1"}, reply: fail}},
		"dialog accept":         {{args: []string{"dialog", "accept"}, wantOK: true}, {args: []string{"dialog", "accept"}, reply: fail}},
		"dialog dismiss":        {{args: []string{"dialog", "dismiss"}, wantOK: true}, {args: []string{"dialog", "dismiss"}, reply: fail}},
		"doctor":                {{args: []string{"doctor", "--bogus"}}},
		"doc read":              {{args: []string{"doc", "read"}, wantOK: true}, {args: []string{"doc", "read"}, reply: fail}},
		"doc find":              {{args: []string{"doc", "find", "total"}, wantOK: true}, {args: []string{"doc", "find", "total"}, reply: fail}},
		"doc insert":            {{args: []string{"doc", "insert", "x", "--end"}, wantOK: true}, {args: []string{"doc", "insert", "x", "--end"}, reply: fail}},
		"downloads":             {{args: []string{"downloads"}, wantOK: true}, {args: []string{"downloads"}, reply: fail}},
		"drag":                  {{args: []string{"drag", "e1", "e2"}, wantOK: true}, {args: []string{"drag", "e1", "e2"}, reply: fail}},
		"click-at":              {{args: []string{"click-at", "10", "20"}, wantOK: true}, {args: []string{"click-at", "10", "20"}, reply: fail}},
		"drift":                 {{args: []string{"drift", routineFile}, reply: clitest.ShopCaller(nil).Reply, wantOK: true}, {args: []string{"drift", routineFile}, reply: fail}},
		"eval":                  {{args: []string{"eval", "1"}, wantOK: true}, {args: []string{"eval", "1"}, reply: fail}},
		"extract":               {{args: []string{"extract", "the title", "--schema", schemaFile}, env: withModel, wantOK: true}, {args: []string{"extract", "the title", "--schema", schemaFile}}},
		"fill":                  {{args: []string{"fill", "e2", "x"}, wantOK: true}, {args: []string{"fill", "e2", "x"}, reply: fail}},
		"find":                  {{args: []string{"find", `{"locator":"label=Email","fingerprint":{"role":"textbox","name":"Email"}}`}, wantOK: true}, {args: []string{"find", `{"locator":"label=Email"}`}, reply: fail}},
		"focus":                 {{args: []string{"focus", "e1"}, wantOK: true}, {args: []string{"focus", "e1"}, reply: fail}},
		"form":                  {{args: []string{"form"}, wantOK: true}, {args: []string{"form"}, reply: fail}},
		"form fill":             {{args: []string{"form", "fill", answersFile}, wantOK: true}, {args: []string{"form", "fill", answersFile}, reply: fail}},
		"form review":           {{args: []string{"form", "review"}, wantOK: true}, {args: []string{"form", "review"}, reply: fail}},
		"sheet read":            {{args: []string{"sheet", "read", "A1:B2"}, wantOK: true}, {args: []string{"sheet", "read", "A1:B2"}, reply: fail}},
		"sheet write":           {{args: []string{"sheet", "write", "B2", "7"}, wantOK: true}, {args: []string{"sheet", "write", "B2", "7"}, reply: fail}},
		"sheet dump":            {{args: []string{"sheet", "dump"}, wantOK: true}, {args: []string{"sheet", "dump"}, reply: fail}},
		"sheet fill":            {{args: []string{"sheet", "fill", answersFile}, wantOK: true}, {args: []string{"sheet", "fill", answersFile}, reply: fail}},
		"forward":               {{args: []string{"forward"}, wantOK: true}, {args: []string{"forward"}, reply: fail}},
		"get attr":              {{args: []string{"get", "attr", "e1", "href"}, wantOK: true}, {args: []string{"get", "attr", "e1", "href"}, reply: fail}},
		"get count":             {{args: []string{"get", "count", "role=button"}, wantOK: true}, {args: []string{"get", "count", "role=button"}, reply: fail}},
		"get html":              {{args: []string{"get", "html", "e1"}, wantOK: true}, {args: []string{"get", "html", "e1"}, reply: fail}},
		"get text":              {{args: []string{"get", "text", "e1"}, wantOK: true}, {args: []string{"get", "text", "e1"}, reply: fail}},
		"get title":             {{args: []string{"get", "title"}, wantOK: true}, {args: []string{"get", "title"}, reply: fail}},
		"get url":               {{args: []string{"get", "url"}, wantOK: true}, {args: []string{"get", "url"}, reply: fail}},
		"get value":             {{args: []string{"get", "value", "e2"}, wantOK: true}, {args: []string{"get", "value", "e2"}, reply: fail}},
		"hover":                 {{args: []string{"hover", "e1"}, wantOK: true}, {args: []string{"hover", "e1"}, reply: fail}},
		"locate":                {{args: []string{"locate", "e1"}, wantOK: true}, {args: []string{"locate", "e1"}, reply: fail}},
		"observe":               {{args: []string{"observe", "where is Go?"}, env: withModel, wantOK: true}, {args: []string{"observe", "where is Go?"}}},
		"capture start":         {{args: []string{"capture", "start"}, wantOK: true}, {args: []string{"capture", "start"}, reply: fail}},
		"capture stop":          {{args: []string{"capture", "stop", filepath.Join(dir, "c.json"), "--har", filepath.Join(dir, "c.har")}, wantOK: true}, {args: []string{"capture", "stop", filepath.Join(dir, "c2.json")}, reply: fail}, {args: []string{"capture", "stop", filepath.Join(dir, "no", "such", "c.json")}}},
		"netlog summarize":      {{args: []string{"netlog", "summarize", netlogFile}, wantOK: true}, {args: []string{"netlog", "summarize", filepath.Join(dir, "none.json")}}},
		"memory show":           {{args: []string{"memory", "show", "shop.test"}, env: map[string]string{"WAYMARK_MEMORY_DIR": filepath.Join(dir, "notes")}, wantOK: true}, {args: []string{"memory", "show", "shop.test"}}, {args: []string{"memory", "show", "../x"}, env: map[string]string{"WAYMARK_MEMORY_DIR": filepath.Join(dir, "notes")}}},
		"memory forget":         {{args: []string{"memory", "forget", "shop.test"}, env: map[string]string{"WAYMARK_MEMORY_DIR": filepath.Join(dir, "notes")}, wantOK: true}, {args: []string{"memory", "forget", "shop.test"}}},
		"open":                  {{args: []string{"open", "http://shop.test/"}, wantOK: true}, {args: []string{"open", "http://shop.test/"}, reply: fail}},
		"pdf":                   {{args: []string{"pdf", filepath.Join(dir, "p.pdf")}, wantOK: true}, {args: []string{"pdf", filepath.Join(dir, "p.pdf")}, reply: fail}},
		"press":                 {{args: []string{"press", "Enter"}, wantOK: true}, {args: []string{"press", "Enter"}, reply: fail}},
		"record start":          {{args: []string{"record", "start"}, wantOK: true}, {args: []string{"record", "start"}, reply: fail}},
		"record rows start":     {{args: []string{"record", "rows", "start", "--recipe", recipeFile}, wantOK: true}, {args: []string{"record", "rows", "start", "--recipe", recipeFile}, reply: fail}, {args: []string{"record", "rows", "start"}}},
		"record rows stop":      {{args: []string{"record", "rows", "stop"}, wantOK: true}, {args: []string{"record", "rows", "stop"}, reply: fail}},
		"record stop":           {{args: []string{"record", "stop", filepath.Join(dir, "rec.json")}, wantOK: true}, {args: []string{"record", "stop", filepath.Join(dir, "rec2.json")}, reply: fail}},
		"routine approve":       {{args: []string{"routine", "approve", routineFile}}}, // a person at a terminal only: --json is refused
		"reload":                {{args: []string{"reload"}, wantOK: true}, {args: []string{"reload"}, reply: fail}},
		"replay":                {{args: []string{"replay", routineFile, "--var", "email=a@b.c", "--secret", "password=env:PW", "--allow-submit"}, env: map[string]string{"PW": "pw-123456"}, reply: clitest.ShopCaller(nil).Reply, wantOK: true}, {args: []string{"replay", routineFile, "--var", "email=a@b.c", "--secret", "password=env:PW"}, env: map[string]string{"PW": "pw-123456"}, reply: fail}},
		"run":                   {{args: []string{"run", "press Go"}, env: withModel, reply: clickedReply(), wantOK: true}, {args: []string{"run", "press Go"}}},
		"screenshot":            {{args: []string{"screenshot", filepath.Join(dir, "s.png")}, wantOK: true}, {args: []string{"screenshot", filepath.Join(dir, "s.png")}, reply: fail}},
		"scroll":                {{args: []string{"scroll", "down"}, wantOK: true}, {args: []string{"scroll", "down"}, reply: fail}},
		"select":                {{args: []string{"select", "e1", "a"}, wantOK: true}, {args: []string{"select", "e1", "a"}, reply: fail}},
		"session list":          {{args: []string{"session", "list"}, wantOK: true}, {args: []string{"session", "list"}, reply: fail}},
		"snapshot":              {{args: []string{"snapshot"}, wantOK: true}, {args: []string{"snapshot"}, reply: fail}},
		"state load":            {{args: []string{"state", "load", stateFile}, wantOK: true}, {args: []string{"state", "load", stateFile}, reply: fail}},
		"state save":            {{args: []string{"state", "save", filepath.Join(dir, "st.json")}, wantOK: true}, {args: []string{"state", "save", filepath.Join(dir, "st.json")}, reply: fail}},
		"storage local clear":   {{args: []string{"storage", "local", "clear"}, wantOK: true}, {args: []string{"storage", "local", "clear"}, reply: fail}},
		"storage local get":     {{args: []string{"storage", "local", "get"}, wantOK: true}, {args: []string{"storage", "local", "get"}, reply: fail}},
		"storage local set":     {{args: []string{"storage", "local", "set", "k", "v"}, wantOK: true}, {args: []string{"storage", "local", "set", "k", "v"}, reply: fail}},
		"storage session clear": {{args: []string{"storage", "session", "clear"}, wantOK: true}, {args: []string{"storage", "session", "clear"}, reply: fail}},
		"storage session get":   {{args: []string{"storage", "session", "get"}, wantOK: true}, {args: []string{"storage", "session", "get"}, reply: fail}},
		"storage session set":   {{args: []string{"storage", "session", "set", "k", "v"}, wantOK: true}, {args: []string{"storage", "session", "set", "k", "v"}, reply: fail}},
		"tab close":             {{args: []string{"tab", "close"}, wantOK: true}, {args: []string{"tab", "close"}, reply: fail}},
		"tab list":              {{args: []string{"tab", "list"}, wantOK: true}, {args: []string{"tab", "list"}, reply: fail}},
		"tab new":               {{args: []string{"tab", "new"}, wantOK: true}, {args: []string{"tab", "new"}, reply: fail}},
		"tab switch":            {{args: []string{"tab", "switch", "1"}, wantOK: true}, {args: []string{"tab", "switch", "1"}, reply: fail}},
		"test":                  {{args: []string{"test", planFile, "--out", filepath.Join(dir, "ev")}, reply: clitest.ShopReply("Products · Shop"), wantOK: true}, {args: []string{"test", planFile, "--out", filepath.Join(dir, "ev2")}, reply: clitest.ShopReply("Cart")}},
		"type":                  {{args: []string{"type", "e2", "x"}, wantOK: true}, {args: []string{"type", "e2", "x"}, reply: fail}},
		"uncheck":               {{args: []string{"uncheck", "e1"}, wantOK: true}, {args: []string{"uncheck", "e1"}, reply: fail}},
		"upload":                {{args: []string{"upload", "e1", upFile}, wantOK: true}, {args: []string{"upload", "e1", upFile}, reply: fail}},
		"version":               {{args: []string{"version"}, wantOK: true}, {args: []string{"version", "extra"}}},
		"viewport":              {{args: []string{"viewport", "800", "600"}, wantOK: true}, {args: []string{"viewport", "800", "600"}, reply: fail}},
		"wait":                  {{args: []string{"wait", "--text", "Shop"}, wantOK: true}, {args: []string{"wait", "--text", "Shop"}, reply: fail}},
		"demo serve":            {{args: []string{"demo", "serve", "--addr", "bad address"}}},
		"demo":                  {{args: []string{"demo", "bogus"}}},
		"mcp":                   {{args: []string{"mcp", "--http", "0.0.0.0:1"}}},
		"trace start":           {{args: []string{"trace", "start"}, wantOK: true}, {args: []string{"trace", "start"}, reply: fail}},
		"trace stop":            {{args: []string{"trace", "stop", filepath.Join(dir, "t.html")}, wantOK: true}, {args: []string{"trace", "stop", filepath.Join(dir, "t2.json")}, reply: fail}, {args: []string{"trace", "stop", filepath.Join(dir, "no", "such", "t.json")}}},
		"trace show":            {{args: []string{"trace", "show", traceFile, filepath.Join(dir, "shown.html")}, wantOK: true}, {args: []string{"trace", "show", routineFile}}},
		"console":               {{args: []string{"console", "--errors"}, wantOK: true}, {args: []string{"console"}, reply: fail}, {args: []string{"console", "--last", "-1"}}},
		"network":               {{args: []string{"network", "--failed"}, wantOK: true}, {args: []string{"network"}, reply: fail}, {args: []string{"network", "--last", "-1"}}},
		"tool":                  {{args: []string{"tool"}, wantOK: true}, {args: []string{"tool", "search", "--args", "{"}}, {args: []string{"tool", "search", "--args", `{"q":1}`}, reply: fail}},
		"sitemap":               {{args: []string{"sitemap", "http://shop.test", "--query", "lamp"}, wantOK: true}, {args: []string{"sitemap", "ftp://shop.test"}}, {args: []string{"sitemap", "http://shop.test"}, reply: fail}},
		"api learn": {{args: []string{"api", "learn", "--capture", captureFile, "--rows", apiRowsFile, "--out", filepath.Join(dir, "learned.api.json")}, reply: clitest.APIReply, wantOK: true},
			{args: []string{"api", "learn", "--capture", captureFile, "--rows", apiRowsFile}, reply: fail}, {args: []string{"api", "learn", "--capture", captureFile}}},
		"api call": {{args: []string{"api", "call", apiRecipeFile, "--pages", "2"}, reply: clitest.APIReply, wantOK: true}, {args: []string{"api", "call", apiRecipeFile}, reply: fail}, {args: []string{"api", "call", routineFile}}},
	}
	// Cases covered elsewhere: doctor's success needs a browser (doctor
	// --json is checked in doctor_test.go), demo and mcp serve until
	// stopped (their failures are here).

	// Every leaf command has a case: a new command without one fails here.
	root := root.NewCmdRoot(&cmdutil.Factory{}, &cmdutil.GlobalOptions{})
	var missing []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, s := range c.Commands() {
			path := strings.TrimPrefix(s.CommandPath(), "waymark ")
			if (len(s.Commands()) == 0 || s.Runnable()) && s.IsAvailableCommand() && s.Name() != "help" && s.Name() != "completion" {
				if _, ok := cases[path]; !ok && len(s.Commands()) == 0 {
					missing = append(missing, path)
				}
			}
			walk(s)
		}
	}
	walk(root)
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("commands with no --json case: %v", missing)
	}

	for name, cs := range cases {
		for i, c := range cs {
			label := fmt.Sprintf("%s#%d", name, i)
			t.Run(label, func(t *testing.T) {
				reply := c.reply
				if reply == nil {
					reply = clitest.PageReply
				}
				fc := &clitest.FakeCaller{Reply: reply}
				args := append([]string{"--json"}, c.args...)
				code, stdout, stderr, _ := runMain(t, context.Background(), fc, c.env, args...)
				env := checkJSONOutput(t, rs, label, stdout)
				if env == nil {
					t.Fatalf("no envelope; exit %d, stderr %s", code, stderr)
				}
				if ok, _ := env["ok"].(bool); ok != c.wantOK {
					t.Errorf("ok = %v, want %v; exit %d\n%s\nstderr: %s", ok, c.wantOK, code, stdout, stderr)
				}
				if (code == 0) != c.wantOK {
					t.Errorf("exit %d with ok %v", code, c.wantOK)
				}
				if e, _ := env["error"].(map[string]any); e != nil && e["code"] == "internal" {
					t.Errorf("a user-facing failure is internal: %v", e)
				}
			})
		}
	}
}
