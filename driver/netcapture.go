package driver

import (
	"bytes"
	"context"
	"encoding/json"
	"sync/atomic"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/capture"
	"github.com/waymark-dev/waymark/driver/internal/netcap"
)

// Network capture (calls.MethodCaptureStart/Stop): the session's side.
// The recorder is package netcap (driver/internal/netcap); the session
// starts and stops it, hands it the tabs' events (tab.onEvent) and redacts
// what it read with every value typed as a secret.

// capturing returns the running capture, or nil.
func (l *pageLog) capturing() *netcap.Capture { return l.capture.Load() }

// StartCapture starts capturing the session's network.
func (s *Session) StartCapture(ctx context.Context, req calls.CaptureStartRequest) (*calls.CaptureStarted, error) {
	if req.MaxExchanges < 0 || req.MaxBodyBytes < 0 || req.MaxTotalBytes < 0 {
		return nil, calls.Errorf(calls.ErrBadInput, "leave the limits out for the defaults", "capture limits must be 0 or more")
	}
	c := netcap.New(context.WithoutCancel(s.browser.ctx), netcap.Limits{MaxExchanges: req.MaxExchanges, MaxBodyBytes: req.MaxBodyBytes, MaxTotalBytes: req.MaxTotalBytes})
	if !s.log.capture.CompareAndSwap(nil, c) {
		c.Cancel()
		return nil, calls.Errorf(calls.ErrBadInput, "stop it first: "+calls.Cmd("capture stop FILE"), "session %q captures already", s.name)
	}
	return &calls.CaptureStarted{Session: s.name, StartedUnix: c.Started().UnixMilli()}, nil
}

// StopCapture ends the session's capture (or reads it so far, with Keep)
// and returns it redacted.
func (s *Session) StopCapture(ctx context.Context, req calls.CaptureStopRequest) (*calls.CaptureStopResult, error) {
	if err := s.captureGone(); err != nil {
		return nil, err
	}
	s.settledLogs(ctx) // the last action's requests answered (pending.go)
	c := s.log.capturing()
	if c == nil {
		return nil, calls.Errorf(calls.ErrBadInput, "start one first: "+calls.Cmd("capture start")+", then use the pages, then "+calls.Cmd("capture stop FILE"),
			"session %q does not capture", s.name)
	}
	// The state as the pages hold it now.
	s.mu.Lock()
	tabs := append([]*tab(nil), s.tabs...)
	s.mu.Unlock()
	rctx, cancel := context.WithTimeout(ctx, netcap.StopWait)
	seen := map[string]bool{}
	for _, t := range tabs {
		if !t.closed() {
			c.ReadState(rctx, t)
			c.ReadCached(rctx, t, seen)
		}
	}
	cancel()
	if err := s.captureGone(); err != nil {
		return nil, err
	}
	if !req.Keep {
		if !s.log.capture.CompareAndSwap(c, nil) {
			return nil, calls.Errorf(calls.ErrBadInput, "", "session %q stopped capturing meanwhile", s.name)
		}
		c.Finish()
	}
	f := c.File(s.name)
	r := capture.NewRedactor(c.Key())
	for _, v := range s.typedValues() {
		r.Secret("secret", v)
	}
	red := r.File(f)
	js, err := indentJSON(red)
	if err != nil {
		return nil, err
	}
	out := &calls.CaptureStopResult{Capture: js, Exchanges: len(red.Exchanges), Messages: len(red.Messages), State: len(red.State), Dropped: red.Dropped}
	if req.HAR {
		if out.HAR, err = indentJSON(capture.ToHAR(red, "")); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// captureGone ends the capture of a session whose browser died, and says
// so: its bodies and state may be cut short anywhere, so nothing is given
// to write.
func (s *Session) captureGone() error {
	if s.browser.Alive() {
		return nil
	}
	s.stopCapture()
	return &calls.Error{Kind: calls.ErrBrowserGone, Msg: "the browser is gone (it crashed or was killed): a capture ends with it, unwritten",
		Hint: "capture again in a new browser: " + calls.Cmd("capture start") + ", then the pages, then " + calls.Cmd("capture stop FILE")}
}

// indentJSON marshals v for a person to read: indented, and the bodies'
// HTML as it is rather than \u003c-escaped.
func indentJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// stopCapture drops a running capture (the session closes).
func (s *Session) stopCapture() {
	if c := s.log.capture.Swap(nil); c != nil {
		c.Finish()
	}
}

// captureHook is how the tab's listener reaches the capture; an atomic
// pointer so that capture off costs one load per event.
type captureHook = atomic.Pointer[netcap.Capture]
