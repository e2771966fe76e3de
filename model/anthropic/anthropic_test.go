package anthropic

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/waymark-dev/waymark/internal/model/modelhttp/modelhttptest"
	"github.com/waymark-dev/waymark/internal/wait"
	"github.com/waymark-dev/waymark/pilot"
)

const testKey = "sk-ant-test-KEY-0123456789"

// A PNG signature is enough for the image path.
var pngBytes = []byte("\x89PNG\r\n\x1a\n-fake-image-bytes")

func textMessage(text string) string {
	return `{"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-5-5",
	"content":[{"type":"text","text":` + quote(text) + `}],
	"stop_reason":"end_turn","stop_sequence":null,
	"usage":{"input_tokens":12,"output_tokens":3,"cache_creation_input_tokens":100,"cache_read_input_tokens":50}}`
}

func toolMessage(name, input string) string {
	return `{"id":"msg_02","type":"message","role":"assistant","model":"claude-sonnet-5-5",
	"content":[{"type":"tool_use","id":"toolu_01","name":"` + name + `","input":` + input + `}],
	"stop_reason":"tool_use","stop_sequence":null,
	"usage":{"input_tokens":20,"output_tokens":7,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}`
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad JSON in test: %v\n%s", err, s)
	}
	return v
}

func newTestModel(t *testing.T, url string, mod func(*Options)) *Model {
	t.Helper()
	opts := Options{APIKey: testKey, BaseURL: url}
	if mod != nil {
		mod(&opts)
	}
	m, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return m
}

func TestNextRequestAndReply(t *testing.T) {
	actSchema := `{"type":"object","properties":{"ref":{"type":"string"},"op":{"type":"string","enum":["click","fill"]}},"required":["ref","op"],"additionalProperties":false}`
	tests := []struct {
		name      string
		turn      pilot.Turn
		answer    string
		wantBody  string // the whole request body the SDK must send
		wantReply pilot.Reply
	}{
		{
			name: "text with cached system prompt and an image",
			turn: pilot.Turn{
				Purpose: pilot.PurposeDecide,
				System:  "You drive a browser.",
				Messages: []pilot.Message{
					{Role: pilot.RoleUser, Text: "What is on the page?", Images: []pilot.Image{{MediaType: "image/png", Data: pngBytes}}},
					{Role: pilot.RoleAssistant, Text: "A form."},
					{Role: pilot.RoleUser, Text: "Describe it."},
				},
			},
			answer: textMessage("A sign-in form."),
			wantBody: `{
				"model": "claude-sonnet-5-5",
				"max_tokens": 4096,
				"system": [{"type":"text","text":"You drive a browser.","cache_control":{"type":"ephemeral"}}],
				"messages": [
					{"role":"user","content":[
						{"type":"image","source":{"type":"base64","media_type":"image/png","data":"` + base64.StdEncoding.EncodeToString(pngBytes) + `"}},
						{"type":"text","text":"What is on the page?"}]},
					{"role":"assistant","content":[{"type":"text","text":"A form."}]},
					{"role":"user","content":[{"type":"text","text":"Describe it."}]}
				]}`,
			wantReply: pilot.Reply{
				Text:  "A sign-in form.",
				Model: "claude-sonnet-5-5",
				Usage: pilot.Usage{InputTokens: 12, OutputTokens: 3, CacheReadTokens: 50, CacheWriteTokens: 100},
			},
		},
		{
			name: "structured answer through one forced tool call",
			turn: pilot.Turn{
				Purpose:    pilot.PurposeAct,
				System:     "Pick an element.",
				Messages:   []pilot.Message{{Role: pilot.RoleUser, Text: "click Sign in"}},
				Schema:     json.RawMessage(actSchema),
				SchemaName: "act",
				MaxTokens:  500,
			},
			answer: toolMessage("act", `{"ref":"e5","op":"click"}`),
			wantBody: `{
				"model": "claude-sonnet-5-5",
				"max_tokens": 500,
				"system": [{"type":"text","text":"Pick an element.","cache_control":{"type":"ephemeral"}}],
				"messages": [{"role":"user","content":[{"type":"text","text":"click Sign in"}]}],
				"tools": [{"name":"act","description":"Give your answer by calling this tool; its input is the answer.","input_schema":` + actSchema + `}],
				"tool_choice": {"type":"tool","name":"act"}
			}`,
			wantReply: pilot.Reply{
				Data:  json.RawMessage(`{"ref":"e5","op":"click"}`),
				Model: "claude-sonnet-5-5",
				Usage: pilot.Usage{InputTokens: 20, OutputTokens: 7},
			},
		},
		{
			name: "array schema is wrapped and unwrapped; default tool name",
			turn: pilot.Turn{
				Purpose:  pilot.PurposeExtract,
				Messages: []pilot.Message{{Role: pilot.RoleUser, Text: "prices"}},
				Schema:   json.RawMessage(`{"type":"array","items":{"type":"number"}}`),
			},
			answer: toolMessage("answer", `{"value":[1.5,2]}`),
			wantBody: `{
				"model": "claude-sonnet-5-5",
				"max_tokens": 4096,
				"messages": [{"role":"user","content":[{"type":"text","text":"prices"}]}],
				"tools": [{"name":"answer","description":"Give your answer by calling this tool; its input is the answer.","input_schema":{
					"type":"object","properties":{"value":{"type":"array","items":{"type":"number"}}},"required":["value"],"additionalProperties":false}}],
				"tool_choice": {"type":"tool","name":"answer"}
			}`,
			wantReply: pilot.Reply{
				Data:  json.RawMessage(`[1.5,2]`),
				Model: "claude-sonnet-5-5",
				Usage: pilot.Usage{InputTokens: 20, OutputTokens: 7},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := newFakeAPI(t, reply{Status: 200, Body: tt.answer})
			m := newTestModel(t, api.URL(), nil)
			got, err := m.Next(context.Background(), tt.turn)
			if err != nil {
				t.Fatalf("Next: %v", err)
			}
			if diff := cmp.Diff(tt.wantReply, got); diff != "" {
				t.Errorf("reply (-want +got):\n%s", diff)
			}
			reqs := api.Requests()
			if len(reqs) != 1 {
				t.Fatalf("got %d requests, want 1", len(reqs))
			}
			r := reqs[0]
			if r.Method != http.MethodPost || r.Path != "/v1/messages" {
				t.Errorf("request %s %s, want POST /v1/messages", r.Method, r.Path)
			}
			if got := r.Header.Get("X-Api-Key"); got != testKey {
				t.Errorf("x-api-key = %q, want the key", got)
			}
			if r.Header.Get("Anthropic-Version") == "" {
				t.Error("no anthropic-version header")
			}
			if got := r.Header.Get("Authorization"); got != "" {
				t.Errorf("Authorization = %q, want none", got)
			}
			if diff := cmp.Diff(decode(t, tt.wantBody), any(r.Body)); diff != "" {
				t.Errorf("request body (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNextFailures(t *testing.T) {
	turn := pilot.Turn{Purpose: pilot.PurposeAct, Messages: []pilot.Message{{Role: pilot.RoleUser, Text: "hi"}}}
	schemaTurn := turn
	schemaTurn.Schema, schemaTurn.SchemaName = json.RawMessage(`{"type":"object"}`), "act"
	rateLimited := reply{Status: 429, Body: `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`}
	overloaded := reply{Status: 529, Body: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`}
	ok := reply{Status: 200, Body: textMessage("ok")}
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

	tests := []struct {
		name       string
		turn       pilot.Turn
		maxRetries int
		script     []reply
		wantErr    error // nil means success
		notErr     []error
		wantText   string
		wantSleeps []time.Duration
		wantInMsg  string
	}{
		{
			name:       "429 with Retry-After seconds, then success",
			script:     []reply{{Status: 429, Header: map[string]string{"Retry-After": "7"}, Body: rateLimited.Body}, ok},
			wantText:   "ok",
			wantSleeps: []time.Duration{7 * time.Second},
		},
		{
			name:       "429 with Retry-After as an HTTP date",
			script:     []reply{{Status: 429, Header: map[string]string{"Retry-After": now.Add(3 * time.Second).Format(http.TimeFormat)}}, ok},
			wantText:   "ok",
			wantSleeps: []time.Duration{3 * time.Second},
		},
		{
			name:       "Retry-After is capped at 30s",
			script:     []reply{{Status: 429, Header: map[string]string{"Retry-After": "120"}}, ok},
			wantText:   "ok",
			wantSleeps: []time.Duration{30 * time.Second},
		},
		{
			name:       "retry-after-ms wins",
			script:     []reply{{Status: 429, Header: map[string]string{"Retry-After": "9", "Retry-After-Ms": "1500"}}, ok},
			wantText:   "ok",
			wantSleeps: []time.Duration{1500 * time.Millisecond},
		},
		{
			name:       "429 forever is ErrRateLimited after MaxRetries",
			script:     []reply{rateLimited, rateLimited, rateLimited},
			wantErr:    pilot.ErrRateLimited,
			wantSleeps: []time.Duration{500 * time.Millisecond, time.Second},
			wantInMsg:  "slow down",
		},
		{
			name:       "negative MaxRetries means one try",
			maxRetries: -1,
			script:     []reply{rateLimited},
			wantErr:    pilot.ErrRateLimited,
		},
		{
			name:       "5xx is retried with backoff",
			script:     []reply{overloaded, ok},
			wantText:   "ok",
			wantSleeps: []time.Duration{500 * time.Millisecond},
		},
		{
			name:       "5xx forever is a plain error",
			maxRetries: 1,
			script:     []reply{overloaded, overloaded},
			wantSleeps: []time.Duration{500 * time.Millisecond},
			notErr:     []error{pilot.ErrRateLimited, pilot.ErrMalformed, pilot.ErrKeyRefused},
			wantInMsg:  "HTTP 529",
		},
		{
			name:      "401 is ErrKeyRefused, not retried",
			script:    []reply{{Status: 401, Body: `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`}},
			wantErr:   pilot.ErrKeyRefused,
			wantInMsg: "refused the key in ANTHROPIC_API_KEY",
		},
		{
			name:    "403 is ErrKeyRefused",
			script:  []reply{{Status: 403, Body: `not json at all`}},
			wantErr: pilot.ErrKeyRefused,
		},
		{
			name:      "400 is a plain error with the server's words",
			script:    []reply{{Status: 400, Body: `{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: too large"}}`}},
			notErr:    []error{pilot.ErrRateLimited, pilot.ErrMalformed, pilot.ErrKeyRefused},
			wantInMsg: "max_tokens: too large",
		},
		{
			name:    "a body that is not JSON is ErrMalformed",
			script:  []reply{{Status: 200, Body: `{"id":"msg_01","content":[`}},
			wantErr: pilot.ErrMalformed,
		},
		{
			name:      "a structured turn answered in text is ErrMalformed",
			turn:      schemaTurn,
			script:    []reply{ok},
			wantErr:   pilot.ErrMalformed,
			wantInMsg: `without calling the "act" tool`,
		},
		{
			name:    "a refusal is ErrCannot",
			script:  []reply{{Status: 200, Body: strings.Replace(textMessage(""), "end_turn", "refusal", 1)}},
			wantErr: pilot.ErrCannot,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := newFakeAPI(t, tt.script...)
			var sl modelhttptest.Sleeps
			m := newTestModel(t, api.URL(), func(o *Options) { o.MaxRetries, o.Sleep = tt.maxRetries, sl.Sleep })
			m.retry.Now = func() time.Time { return now }
			turn := tt.turn
			if turn.Messages == nil {
				turn = pilot.Turn{Purpose: pilot.PurposeAct, Messages: []pilot.Message{{Role: pilot.RoleUser, Text: "hi"}}}
			}
			got, err := m.Next(context.Background(), turn)
			switch {
			case tt.wantErr == nil && tt.notErr == nil && err != nil:
				t.Fatalf("Next: %v", err)
			case tt.wantErr != nil && !errors.Is(err, tt.wantErr):
				t.Fatalf("Next error = %v, want %v", err, tt.wantErr)
			case tt.notErr != nil && err == nil:
				t.Fatal("Next succeeded, want an error")
			}
			for _, e := range tt.notErr {
				if errors.Is(err, e) {
					t.Errorf("error %q wraps %v; it should not", err, e)
				}
			}
			if err == nil && got.Text != tt.wantText {
				t.Errorf("Text = %q, want %q", got.Text, tt.wantText)
			}
			if tt.wantInMsg != "" && (err == nil || !strings.Contains(err.Error(), tt.wantInMsg)) {
				t.Errorf("error %v does not say %q", err, tt.wantInMsg)
			}
			if diff := cmp.Diff(tt.wantSleeps, sl.Got()); diff != "" {
				t.Errorf("waits (-want +got):\n%s", diff)
			}
			if n := len(api.Requests()); n != len(tt.script) {
				t.Errorf("server got %d requests, want %d", n, len(tt.script))
			}
		})
	}
}

func TestNextTimeout(t *testing.T) {
	url, _, _ := modelhttptest.BlockingServer(t)
	var sl modelhttptest.Sleeps
	m := newTestModel(t, url, func(o *Options) { o.Timeout, o.Sleep = 100*time.Millisecond, sl.Sleep })
	start := time.Now()
	_, err := m.Next(context.Background(), pilot.Turn{Messages: []pilot.Message{{Role: pilot.RoleUser, Text: "hi"}}})
	if !errors.Is(err, pilot.ErrModelTimeout) {
		t.Fatalf("error = %v, want ErrModelTimeout", err)
	}
	if errors.Is(err, context.Canceled) {
		t.Errorf("a timeout must not look like a cancellation: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %s; the 100ms timeout was not applied", d)
	}
	if len(sl.Got()) != 0 {
		t.Errorf("a timeout was retried: waits %v", sl.Got())
	}
}

func TestNextCancel(t *testing.T) {
	tests := []struct {
		name string
		// cancelWhen cancels the call at some point in it.
		run func(t *testing.T, ctx context.Context, cancel context.CancelFunc) error
	}{
		{
			name: "mid-request",
			run: func(t *testing.T, ctx context.Context, cancel context.CancelFunc) error {
				url, started, aborted := modelhttptest.BlockingServer(t)
				m := newTestModel(t, url, nil)
				go func() { <-started; cancel() }()
				_, err := m.Next(ctx, pilot.Turn{Messages: []pilot.Message{{Role: pilot.RoleUser, Text: "hi"}}})
				select {
				case <-aborted:
				case <-time.After(10 * time.Second):
					t.Error("the server never saw the request aborted")
				}
				return err
			},
		},
		{
			name: "while waiting to retry",
			run: func(t *testing.T, ctx context.Context, cancel context.CancelFunc) error {
				api := newFakeAPI(t, reply{Status: 429, Header: map[string]string{"Retry-After": "30"}})
				m := newTestModel(t, api.URL(), func(o *Options) {
					o.Sleep = func(ctx context.Context, d time.Duration) error { cancel(); return wait.Sleep(ctx, d) }
				})
				return func() error {
					_, err := m.Next(ctx, pilot.Turn{Messages: []pilot.Message{{Role: pilot.RoleUser, Text: "hi"}}})
					return err
				}()
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			start := time.Now()
			err := tt.run(t, ctx, cancel)
			// A call that missed the cancel would go on for the whole
			// timeout (2 minutes) or Retry-After (30 s); 10 s only leaves
			// room for a loaded machine (the time includes the server's
			// start and the request's way there).
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("returned after %s, want under 10s", d)
			}
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("error = %v, want context.Canceled", err)
			}
			if errors.Is(err, pilot.ErrModelTimeout) {
				t.Errorf("cancellation reported as a timeout: %v", err)
			}
		})
	}
}

func TestLogsHoldNoSecrets(t *testing.T) {
	const prompt, system = "type hunter2-PROMPT into the password box", "SYSTEM-PROMPT-TEXT"
	api := newFakeAPI(t,
		reply{Status: 429, Header: map[string]string{"Retry-After": "1"}},
		reply{Status: 200, Body: textMessage("done")},
		reply{Status: 401, Body: `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`},
	)
	var buf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	var sl modelhttptest.Sleeps
	m := newTestModel(t, api.URL(), func(o *Options) { o.Logger, o.Sleep = logger, sl.Sleep })
	turn := pilot.Turn{
		Purpose:  pilot.PurposeAct,
		System:   system,
		Messages: []pilot.Message{{Role: pilot.RoleUser, Text: prompt, Images: []pilot.Image{{MediaType: "image/png", Data: pngBytes}}}},
	}
	if _, err := m.Next(context.Background(), turn); err != nil {
		t.Fatalf("first call: %v", err)
	}
	if _, err := m.Next(context.Background(), turn); !errors.Is(err, pilot.ErrKeyRefused) {
		t.Fatalf("second call: %v, want ErrKeyRefused", err)
	}

	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("got %d log lines, want 3 (retry, done, failed):\n%s", len(lines), buf.String())
	}
	for _, secret := range []string{testKey, prompt, "hunter2", system, base64.StdEncoding.EncodeToString(pngBytes)} {
		if strings.Contains(buf.String(), secret) {
			t.Errorf("log contains %q:\n%s", secret, buf.String())
		}
	}
	var done map[string]any
	if err := json.Unmarshal([]byte(lines[1]), &done); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"purpose", "model", "dur_ms", "input_tokens", "output_tokens", "status"} {
		if _, ok := done[k]; !ok {
			t.Errorf("log line lacks %q: %s", k, lines[1])
		}
	}
	if done["purpose"] != "act" || done["input_tokens"] != float64(12) || done["status"] != float64(200) {
		t.Errorf("log line has wrong values: %s", lines[1])
	}
}

func TestNew(t *testing.T) {
	tests := []struct {
		name    string
		opts    Options
		wantErr error
		wantMsg string
	}{
		{name: "no key", opts: Options{}, wantErr: pilot.ErrNoKey, wantMsg: "ANTHROPIC_API_KEY"},
		{name: "bad base URL", opts: Options{APIKey: "k", BaseURL: "localhost:8080"}, wantMsg: "not an http(s) URL"},
		{name: "defaults", opts: Options{APIKey: "k"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := New(tt.opts)
			if tt.wantMsg == "" {
				if err != nil {
					t.Fatalf("New: %v", err)
				}
				type defaults struct {
					Model      string
					MaxRetries int
					Timeout    time.Duration
				}
				want := defaults{DefaultModel, 2, DefaultTimeout}
				got := defaults{m.retry.Model, m.retry.MaxRetries, m.retry.Timeout}
				if got != want {
					t.Errorf("defaults = %+v, want %+v", got, want)
				}
				return
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("error = %v, want %v", err, tt.wantErr)
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("error = %v, want it to say %q", err, tt.wantMsg)
			}
		})
	}
}

// The SDK reads ANTHROPIC_* variables by default; the package must not.
func TestIgnoresEnvironment(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "env-key")
	t.Setenv("ANTHROPIC_AUTH_TOKEN", "env-token")
	t.Setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:1")
	t.Setenv("ANTHROPIC_CUSTOM_HEADERS", "X-Env: yes")
	api := newFakeAPI(t, reply{Status: 200, Body: textMessage("ok")})
	m := newTestModel(t, api.URL(), nil)
	if _, err := m.Next(context.Background(), pilot.Turn{Messages: []pilot.Message{{Role: pilot.RoleUser, Text: "hi"}}}); err != nil {
		t.Fatalf("Next: %v", err)
	}
	h := api.Requests()[0].Header
	if h.Get("X-Api-Key") != testKey || h.Get("Authorization") != "" || h.Get("X-Env") != "" {
		t.Errorf("environment leaked into the request: x-api-key=%q authorization=%q x-env=%q",
			h.Get("X-Api-Key"), h.Get("Authorization"), h.Get("X-Env"))
	}
}
