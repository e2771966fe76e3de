package config

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// cdpServer is a fake DevTools endpoint: /json/version answers like Chromium.
func cdpServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/json/version" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintf(w, `{"Browser":"Chrome/148.0.0.0","webSocketDebuggerUrl":"ws://%s/devtools/browser/abc"}`, r.Host)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// downEndpoint returns the address of a server that was closed: nothing
// listens there.
func downEndpoint(t *testing.T) string {
	srv := httptest.NewServer(http.NotFoundHandler())
	u := srv.URL
	srv.Close()
	return u
}

func TestResolveEngine(t *testing.T) {
	up := cdpServer(t)
	down := downEndpoint(t)
	tests := []struct {
		name     string
		engine   Engine
		cdp      string
		fallback bool
		want     Engine
		wantErr  error // errors.Is target; nil: no error
	}{
		{name: "chromium never probes", engine: EngineChromium, cdp: down, want: EngineChromium},
		{name: "auto without endpoint", engine: EngineAuto, want: EngineChromium},
		{name: "auto, endpoint up", engine: EngineAuto, cdp: up.URL, want: EngineCDP},
		{name: "auto, endpoint down, fallback", engine: EngineAuto, cdp: down, fallback: true, want: EngineChromium},
		{name: "auto, endpoint down, no fallback", engine: EngineAuto, cdp: down, wantErr: ErrEndpointDown},
		{name: "cdp, endpoint up", engine: EngineCDP, cdp: up.URL, want: EngineCDP},
		{name: "cdp, endpoint down, fallback", engine: EngineCDP, cdp: down, fallback: true, want: EngineChromium},
		{name: "cdp, endpoint down, no fallback", engine: EngineCDP, cdp: down, wantErr: ErrEndpointDown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Default()
			c.Browser.Engine, c.Browser.CDP, c.Fallback.CDPToLocal = tt.engine, tt.cdp, tt.fallback
			probed := 0
			probe := func(ctx context.Context, endpoint string) error {
				probed++
				return ProbeCDP(ctx, endpoint)
			}
			got, err := ResolveEngine(context.Background(), c, probe)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
				if !strings.Contains(err.Error(), "cdp_to_local") || !strings.Contains(err.Error(), tt.cdp) {
					t.Errorf("error %q should name the endpoint and the fallback setting", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("engine = %q, want %q", got, tt.want)
			}
			if tt.engine == EngineChromium && probed != 0 {
				t.Error("engine chromium probed the endpoint")
			}
		})
	}
}

func TestResolveEngineCDPWithoutEndpoint(t *testing.T) {
	c := Default()
	c.Browser.Engine = EngineCDP
	_, err := ResolveEngine(context.Background(), c, func(context.Context, string) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "WAYMARK_CDP") {
		t.Fatalf("err = %v, want one saying how to set the endpoint", err)
	}
}

func TestResolveEngineCanceled(t *testing.T) {
	c := Default()
	c.Browser.CDP = "9222"
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := ResolveEngine(ctx, c, func(ctx context.Context, _ string) error { return ctx.Err() })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want canceled", err)
	}
}

func TestProbeCDP(t *testing.T) {
	up := cdpServer(t)
	notCDP := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, `{}`) }))
	t.Cleanup(notCDP.Close)
	host := strings.TrimPrefix(up.URL, "http://")
	tests := []struct {
		name     string
		endpoint string
		wantErr  bool
	}{
		{"http URL", up.URL, false},
		{"host:port", host, false},
		{"ws URL", "ws://" + host + "/devtools/browser/abc", false},
		{"down", downEndpoint(t), true},
		{"not DevTools", notCDP.URL, true},
		{"bad scheme", "ftp://" + host, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ProbeCDP(context.Background(), tt.endpoint)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
		})
	}
}

func TestVersionURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"9222", "http://127.0.0.1:9222/json/version"},
		{"10.0.0.5:9222", "http://10.0.0.5:9222/json/version"},
		{"http://127.0.0.1:9222", "http://127.0.0.1:9222/json/version"},
		{"wss://farm.example/devtools/browser/1", "https://farm.example/json/version"},
	}
	for _, tt := range tests {
		got, err := VersionURL(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("VersionURL(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}
