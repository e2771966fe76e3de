package openai

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/waymark-dev/waymark/internal/model/modelhttp/modelhttptest"
	"github.com/waymark-dev/waymark/pilot"
)

const testKey = "sk-proj-test-KEY-0123456789"

var pngBytes = []byte("\x89PNG\r\n\x1a\n-fake-image-bytes")

// completion is a Chat Completions answer; message is the JSON of its
// one choice's message.
func completion(message, finish string) string {
	return `{"id":"chatcmpl-1","object":"chat.completion","created":1700000000,"model":"served-model",
	"choices":[{"index":0,"message":` + message + `,"logprobs":null,"finish_reason":"` + finish + `"}],
	"usage":{"prompt_tokens":30,"completion_tokens":5,"total_tokens":35,"prompt_tokens_details":{"cached_tokens":10,"audio_tokens":0}}}`
}

func textAnswer(content string) string {
	return completion(`{"role":"assistant","content":`+quote(content)+`,"refusal":null}`, "stop")
}

func toolAnswer(name, args string) string {
	return completion(`{"role":"assistant","content":null,"refusal":null,"tool_calls":[
		{"id":"call_1","type":"function","function":{"name":"`+name+`","arguments":`+quote(args)+`}}]}`, "tool_calls")
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

// toAPI sends every request, whatever its host, to the fake API, so that
// tests can use OpenAI's own base URL without leaving loopback.
type toAPI struct{ base *url.URL }

func (t toAPI) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host = t.base.Scheme, t.base.Host
	return http.DefaultTransport.RoundTrip(r)
}

// newTestModel makes a Model for a local server at url, or for OpenAI's
// API routed to url when openAI is set.
func newTestModel(t *testing.T, srvURL string, openAI bool, mod func(*Options)) *Model {
	t.Helper()
	opts := Options{BaseURL: srvURL + "/v1", Model: "llama3.2"}
	if openAI {
		u, _ := url.Parse(srvURL)
		opts = Options{APIKey: testKey, HTTPClient: &http.Client{Transport: toAPI{u}}}
	}
	if mod != nil {
		mod(&opts)
	}
	m, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return m
}

const actSchema = `{"type":"object","properties":{"ref":{"type":"string"}},"required":["ref"]}`

func TestNextRequestAndReply(t *testing.T) {
	tests := []struct {
		name      string
		openAI    bool
		startMode mode
		turn      pilot.Turn
		answer    string
		wantAuth  string
		wantBody  string
		wantReply pilot.Reply
	}{
		{
			name:   "OpenAI: text, system prompt, image, max_completion_tokens",
			openAI: true,
			turn: pilot.Turn{
				Purpose: pilot.PurposeDecide,
				System:  "You drive a browser.",
				Messages: []pilot.Message{
					{Role: pilot.RoleUser, Text: "What is this?", Images: []pilot.Image{{MediaType: "image/png", Data: pngBytes}}},
					{Role: pilot.RoleAssistant, Text: "A form."},
					{Role: pilot.RoleUser, Text: "And now?"},
				},
				MaxTokens: 100,
			},
			answer:   textAnswer("A sign-in form."),
			wantAuth: "Bearer " + testKey,
			wantBody: `{
				"model": "gpt-5.5",
				"max_completion_tokens": 100,
				"messages": [
					{"role":"system","content":"You drive a browser."},
					{"role":"user","content":[
						{"type":"text","text":"What is this?"},
						{"type":"image_url","image_url":{"url":"data:image/png;base64,` + base64.StdEncoding.EncodeToString(pngBytes) + `"}}]},
					{"role":"assistant","content":"A form."},
					{"role":"user","content":"And now?"}
				]}`,
			wantReply: pilot.Reply{
				Text:  "A sign-in form.",
				Model: "served-model",
				Usage: pilot.Usage{InputTokens: 20, OutputTokens: 5, CacheReadTokens: 10},
			},
		},
		{
			name: "local server: json_schema, no key, max_tokens",
			turn: pilot.Turn{
				Purpose:    pilot.PurposeAct,
				Messages:   []pilot.Message{{Role: pilot.RoleUser, Text: "click Sign in"}},
				Schema:     json.RawMessage(actSchema),
				SchemaName: "act",
				MaxTokens:  50,
			},
			answer: textAnswer(`{"ref":"e5"}`),
			wantBody: `{
				"model": "llama3.2",
				"max_tokens": 50,
				"messages": [{"role":"user","content":"click Sign in"}],
				"response_format": {"type":"json_schema","json_schema":{"name":"act","schema":` + actSchema + `,"strict":false}}
			}`,
			wantReply: pilot.Reply{
				Data:  json.RawMessage(`{"ref":"e5"}`),
				Model: "served-model",
				Usage: pilot.Usage{InputTokens: 20, OutputTokens: 5, CacheReadTokens: 10},
			},
		},
		{
			name:      "tool mode: one forced function call; array schema wrapped",
			startMode: modeTool,
			turn: pilot.Turn{
				Purpose:  pilot.PurposeExtract,
				Messages: []pilot.Message{{Role: pilot.RoleUser, Text: "prices"}},
				Schema:   json.RawMessage(`{"type":"array","items":{"type":"number"}}`),
			},
			answer: toolAnswer("answer", `{"value":[1.5,2]}`),
			wantBody: `{
				"model": "llama3.2",
				"messages": [{"role":"user","content":"prices"}],
				"tools": [{"type":"function","function":{"name":"answer",
					"description":"Give your answer by calling this function; its arguments are the answer.",
					"parameters":{"type":"object","properties":{"value":{"type":"array","items":{"type":"number"}}},"required":["value"],"additionalProperties":false}}}],
				"tool_choice": {"type":"function","function":{"name":"answer"}}
			}`,
			wantReply: pilot.Reply{
				Data:  json.RawMessage(`[1.5,2]`),
				Model: "served-model",
				Usage: pilot.Usage{InputTokens: 20, OutputTokens: 5, CacheReadTokens: 10},
			},
		},
		{
			name:      "text mode: the schema in the system prompt, JSON read leniently",
			startMode: modeText,
			turn: pilot.Turn{
				Purpose:  pilot.PurposeAct,
				System:   "Pick an element.",
				Messages: []pilot.Message{{Role: pilot.RoleUser, Text: "click Sign in"}},
				Schema:   json.RawMessage(actSchema),
			},
			answer: textAnswer("Here you go:\n```json\n{\"ref\": \"e7\"}\n```"),
			wantBody: `{
				"model": "llama3.2",
				"messages": [
					{"role":"system","content":` + quote("Pick an element.\n\nAnswer with only a JSON value, and no other text, that is valid against this JSON Schema:\n"+actSchema) + `},
					{"role":"user","content":"click Sign in"}]
			}`,
			wantReply: pilot.Reply{
				Data:  json.RawMessage(`{"ref": "e7"}`),
				Model: "served-model",
				Usage: pilot.Usage{InputTokens: 20, OutputTokens: 5, CacheReadTokens: 10},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := newFakeAPI(t, reply{Status: 200, Body: tt.answer})
			m := newTestModel(t, api.URL(), tt.openAI, nil)
			m.mode.Store(int32(tt.startMode))
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
			if r.Method != http.MethodPost || r.Path != "/v1/chat/completions" {
				t.Errorf("request %s %s, want POST /v1/chat/completions", r.Method, r.Path)
			}
			if got := r.Header.Get("Authorization"); got != tt.wantAuth {
				t.Errorf("Authorization = %q, want %q", got, tt.wantAuth)
			}
			if diff := cmp.Diff(decode(t, tt.wantBody), any(r.Body)); diff != "" {
				t.Errorf("request body (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNextFailures(t *testing.T) {
	rateLimited := reply{Status: 429, Body: `{"error":{"message":"Rate limit reached","type":"requests"}}`}
	ok := reply{Status: 200, Body: textAnswer("ok")}
	tests := []struct {
		name       string
		openAI     bool
		script     []reply
		wantErr    error
		wantSleeps []time.Duration
		wantInMsg  string
	}{
		{
			name:       "429 with Retry-After, then success",
			script:     []reply{{Status: 429, Header: map[string]string{"Retry-After": "2"}, Body: rateLimited.Body}, ok},
			wantSleeps: []time.Duration{2 * time.Second},
		},
		{
			name:       "429 forever is ErrRateLimited",
			script:     []reply{rateLimited, rateLimited, rateLimited},
			wantErr:    pilot.ErrRateLimited,
			wantSleeps: []time.Duration{500 * time.Millisecond, time.Second},
			wantInMsg:  "Rate limit reached",
		},
		{
			name:       "502 then success",
			script:     []reply{{Status: 502, Body: "bad gateway"}, ok},
			wantSleeps: []time.Duration{500 * time.Millisecond},
		},
		{
			name:      "401 from OpenAI names the key's variable",
			openAI:    true,
			script:    []reply{{Status: 401, Body: `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`}},
			wantErr:   pilot.ErrKeyRefused,
			wantInMsg: "the OpenAI API refused the key in OPENAI_API_KEY",
		},
		{
			name:      "401 from a local server sent no key",
			script:    []reply{{Status: 401, Body: `{"error":"unauthorized"}`}},
			wantErr:   pilot.ErrKeyRefused,
			wantInMsg: "wants an API key (HTTP 401: unauthorized); set OPENAI_API_KEY",
		},
		{
			name:    "a body that is not JSON is ErrMalformed",
			script:  []reply{{Status: 200, Body: `{"choices":[{`}},
			wantErr: pilot.ErrMalformed,
		},
		{
			name:    "no choices is ErrMalformed",
			script:  []reply{{Status: 200, Body: `{"id":"x","object":"chat.completion","choices":[]}`}},
			wantErr: pilot.ErrMalformed,
		},
		{
			name:      "404 says to check the model",
			script:    []reply{{Status: 404, Body: `{"error":{"message":"model \"llama3.2\" not found, try pulling it first"}}`}},
			wantInMsg: "check the model name",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := newFakeAPI(t, tt.script...)
			var sl modelhttptest.Sleeps
			m := newTestModel(t, api.URL(), tt.openAI, func(o *Options) { o.Sleep = sl.Sleep })
			got, err := m.Next(context.Background(), pilot.Turn{Messages: []pilot.Message{{Role: pilot.RoleUser, Text: "hi"}}})
			wantFail := tt.wantErr != nil || tt.wantInMsg != ""
			switch {
			case !wantFail && err != nil:
				t.Fatalf("Next: %v", err)
			case wantFail && err == nil:
				t.Fatal("Next succeeded, want an error")
			case tt.wantErr != nil && !errors.Is(err, tt.wantErr):
				t.Fatalf("Next error = %v, want %v", err, tt.wantErr)
			}
			if !wantFail && got.Text != "ok" {
				t.Errorf("Text = %q, want ok", got.Text)
			}
			if tt.wantInMsg != "" && !strings.Contains(err.Error(), tt.wantInMsg) {
				t.Errorf("error %q does not say %q", err, tt.wantInMsg)
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
	srvURL, _, _ := modelhttptest.BlockingServer(t)
	var sl modelhttptest.Sleeps
	m := newTestModel(t, srvURL, false, func(o *Options) { o.Timeout, o.Sleep = 100*time.Millisecond, sl.Sleep })
	start := time.Now()
	_, err := m.Next(context.Background(), pilot.Turn{Messages: []pilot.Message{{Role: pilot.RoleUser, Text: "hi"}}})
	if !errors.Is(err, pilot.ErrModelTimeout) || errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want ErrModelTimeout and not Canceled", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %s; the 100ms timeout was not applied", d)
	}
	if len(sl.Got()) != 0 {
		t.Errorf("a timeout was retried: waits %v", sl.Got())
	}
}

func TestNextCancelMidRequest(t *testing.T) {
	for _, structured := range []bool{false, true} {
		t.Run(map[bool]string{false: "text", true: "structured"}[structured], func(t *testing.T) {
			srvURL, started, aborted := modelhttptest.BlockingServer(t)
			m := newTestModel(t, srvURL, false, nil)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() { <-started; cancel() }()
			turn := pilot.Turn{Messages: []pilot.Message{{Role: pilot.RoleUser, Text: "hi"}}}
			if structured {
				turn.Schema = json.RawMessage(actSchema)
			}
			start := time.Now()
			_, err := m.Next(ctx, turn)
			// A call that missed the cancel would go on for the whole
			// timeout (2 minutes); 10 s only leaves room for a loaded
			// machine (the time includes the request's way there).
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("returned after %s, want under 10s", d)
			}
			if !errors.Is(err, context.Canceled) || errors.Is(err, pilot.ErrModelTimeout) {
				t.Fatalf("error = %v, want context.Canceled only", err)
			}
			select {
			case <-aborted:
			case <-time.After(10 * time.Second):
				t.Error("the server never saw the request aborted")
			}
			if got := mode(m.mode.Load()); got != modeJSONSchema {
				t.Errorf("a canceled call moved the mode to %s", got)
			}
		})
	}
}

func TestLogsHoldNoSecrets(t *testing.T) {
	const prompt, system = "type hunter2-PROMPT into the password box", "SYSTEM-PROMPT-TEXT"
	api := newFakeAPI(t,
		reply{Status: 429, Header: map[string]string{"Retry-After": "1"}},
		reply{Status: 400, Body: `{"error":{"message":"response_format is not supported"}}`},
		reply{Status: 200, Body: toolAnswer("act", `{"ref":"e5"}`)},
		reply{Status: 401, Body: `{"error":{"message":"Incorrect API key provided: sk-proj-****6789"}}`},
	)
	var buf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	var sl modelhttptest.Sleeps
	m := newTestModel(t, api.URL(), true, func(o *Options) { o.Logger, o.Sleep = logger, sl.Sleep })
	turn := pilot.Turn{
		Purpose:    pilot.PurposeAct,
		System:     system,
		Messages:   []pilot.Message{{Role: pilot.RoleUser, Text: prompt, Images: []pilot.Image{{MediaType: "image/png", Data: pngBytes}}}},
		Schema:     json.RawMessage(actSchema),
		SchemaName: "act",
	}
	if _, err := m.Next(context.Background(), turn); err != nil {
		t.Fatalf("first call: %v", err)
	}
	if _, err := m.Next(context.Background(), turn); !errors.Is(err, pilot.ErrKeyRefused) {
		t.Fatalf("second call: %v, want ErrKeyRefused", err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("got %d log lines, want 4 (retry, fallback, done, failed):\n%s", len(lines), buf.String())
	}
	for _, secret := range []string{testKey, prompt, "hunter2", system, base64.StdEncoding.EncodeToString(pngBytes), `"ref"`} {
		if strings.Contains(buf.String(), secret) {
			t.Errorf("log contains %q:\n%s", secret, buf.String())
		}
	}
	var done map[string]any
	if err := json.Unmarshal([]byte(lines[2]), &done); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"purpose", "model", "dur_ms", "input_tokens", "output_tokens", "status"} {
		if _, ok := done[k]; !ok {
			t.Errorf("log line lacks %q: %s", k, lines[2])
		}
	}
	if done["purpose"] != "act" || done["output_tokens"] != float64(5) || done["mode"] != "tool" {
		t.Errorf("log line has wrong values: %s", lines[2])
	}
}

func TestNew(t *testing.T) {
	tests := []struct {
		name    string
		opts    Options
		wantErr error
		wantMsg string // empty means New succeeds
	}{
		{name: "no key for OpenAI", opts: Options{}, wantErr: pilot.ErrNoKey, wantMsg: "set OPENAI_API_KEY"},
		{name: "no key for OpenAI's URL", opts: Options{BaseURL: "https://api.openai.com/v1"}, wantErr: pilot.ErrNoKey, wantMsg: "OPENAI_API_KEY"},
		{name: "local server without a model", opts: Options{BaseURL: "http://localhost:11434/v1"}, wantMsg: "--model"},
		{name: "bad base URL", opts: Options{BaseURL: "localhost:11434"}, wantMsg: "not an http(s) URL"},
		{name: "local server, no key", opts: Options{BaseURL: "http://localhost:11434/v1", Model: "llama3.2"}},
		{name: "OpenAI with a key", opts: Options{APIKey: "k"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.opts)
			if tt.wantMsg == "" {
				if err != nil {
					t.Fatalf("New: %v", err)
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

// The SDK's NewClient reads OPENAI_* variables; the package must not.
func TestIgnoresEnvironment(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "env-key")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
	t.Setenv("OPENAI_ORG_ID", "org-env")
	t.Setenv("OPENAI_CUSTOM_HEADERS", "X-Env: yes")
	api := newFakeAPI(t, reply{Status: 200, Body: textAnswer("ok")})
	m := newTestModel(t, api.URL(), false, nil)
	if _, err := m.Next(context.Background(), pilot.Turn{Messages: []pilot.Message{{Role: pilot.RoleUser, Text: "hi"}}}); err != nil {
		t.Fatalf("Next: %v", err)
	}
	h := api.Requests()[0].Header
	if h.Get("Authorization") != "" || h.Get("OpenAI-Organization") != "" || h.Get("X-Env") != "" {
		t.Errorf("environment leaked into the request: authorization=%q org=%q x-env=%q",
			h.Get("Authorization"), h.Get("OpenAI-Organization"), h.Get("X-Env"))
	}
}
