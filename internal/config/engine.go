package config

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// ProbeTimeout bounds [ProbeCDP] when ctx has no earlier deadline.
const ProbeTimeout = 2 * time.Second

// ErrEndpointDown is what [ResolveEngine] returns, wrapped in an
// [EndpointDownError], when the CDP endpoint does not answer and
// fallback.cdp_to_local is false.
var ErrEndpointDown = errors.New("CDP endpoint does not answer")

// EndpointDownError says which endpoint failed its probe, and why.
type EndpointDownError struct {
	Endpoint string
	Err      error // the probe's error
}

func (e *EndpointDownError) Error() string {
	return fmt.Sprintf("CDP endpoint %s does not answer (%v) and fallback.cdp_to_local is false; start that browser with --remote-debugging-port, fix browser.cdp (or WAYMARK_CDP, --cdp), or set cdp_to_local = true in [fallback] to start a local Chromium instead",
		e.Endpoint, e.Err)
}

func (e *EndpointDownError) Unwrap() error { return ErrEndpointDown }

// ResolveEngine decides which browser to use: [EngineChromium] (start one)
// or [EngineCDP] (attach to c.Browser.CDP). Engine "chromium" never probes.
// Engines "cdp" and "auto" probe the endpoint (nil probe means [ProbeCDP]);
// when it does not answer, fallback.cdp_to_local picks a local Chromium, or
// else the error is an [*EndpointDownError]. Engine "auto" with no endpoint
// is a local Chromium; "cdp" with none is an error. A result of chromium
// for a configured endpoint means the fallback was taken.
func ResolveEngine(ctx context.Context, c *Config, probe func(ctx context.Context, endpoint string) error) (Engine, error) {
	switch c.Browser.Engine {
	case EngineChromium, "":
		return EngineChromium, nil
	case EngineCDP, EngineAuto:
	default:
		return "", &ValueError{Key: "browser.engine", Value: string(c.Browser.Engine), Source: c.sources["browser.engine"], Allowed: []string{"chromium", "cdp", "auto"}}
	}
	if c.Browser.CDP == "" {
		if c.Browser.Engine == EngineAuto {
			return EngineChromium, nil
		}
		return "", fmt.Errorf(`browser.engine is "cdp" (from %s) but no endpoint is set; set browser.cdp, WAYMARK_CDP or --cdp, or use engine = "auto"`, c.sources["browser.engine"])
	}
	if probe == nil {
		probe = ProbeCDP
	}
	err := probe(ctx, c.Browser.CDP)
	if err == nil {
		return EngineCDP, nil
	}
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	if c.Fallback.CDPToLocal {
		return EngineChromium, nil
	}
	return "", &EndpointDownError{Endpoint: c.Browser.CDP, Err: err}
}

// probeClient is the client of [ProbeCDP]; the timeout comes from ctx.
var probeClient = &http.Client{}

// ProbeCDP checks that a DevTools endpoint answers: a GET of
// /json/version that returns the browser's version within [ProbeTimeout].
// endpoint is a port ("9222"), host:port, or an http(s):// or ws(s):// URL.
func ProbeCDP(ctx context.Context, endpoint string) error {
	u, err := VersionURL(endpoint)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	resp, err := probeClient.Do(req)
	if err != nil {
		return fmt.Errorf("GET %s: %w", u, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	var v struct {
		Browser string `json:"Browser"`
		WS      string `json:"webSocketDebuggerUrl"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&v); err != nil || (v.Browser == "" && v.WS == "") {
		return fmt.Errorf("GET %s: not a DevTools endpoint (no Browser or webSocketDebuggerUrl in the reply)", u)
	}
	return nil
}

// VersionURL turns a CDP endpoint as configured into the address of its
// /json/version: "9222" → http://127.0.0.1:9222/json/version; a ws:// URL
// keeps its host.
func VersionURL(endpoint string) (string, error) {
	s := strings.TrimSpace(endpoint)
	if _, err := strconv.Atoi(s); err == nil {
		s = "127.0.0.1:" + s
	}
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("bad CDP endpoint %q; give a port (9222), host:port or an http:// or ws:// URL", endpoint)
	}
	switch u.Scheme {
	case "http", "ws":
		u.Scheme = "http"
	case "https", "wss":
		u.Scheme = "https"
	default:
		return "", fmt.Errorf("bad CDP endpoint %q: scheme %q; use http:// or ws://", endpoint, u.Scheme)
	}
	return u.Scheme + "://" + u.Host + "/json/version", nil
}
