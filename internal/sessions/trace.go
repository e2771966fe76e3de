package sessions

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/secret"
)

// Tracing: between trace.start and trace.stop, every call made on a
// session is kept with its outcome, a screenshot before and after the
// calls that may change the page (the element acted on outlined in the
// one before), and the console messages and requests of the pages
// meanwhile (the driver's page log, read since the call began). The
// daemon keeps the trace in memory; trace.stop hands it to the front,
// which writes the file where the user is.

// Bounds of a trace: the calls kept, and the bytes of their screenshots
// (past it, calls are kept without pictures).
const (
	maxTraceEntries = 500
	maxTraceShots   = 96 << 20
)

// shotMethods may change the page: a trace pictures the page around them.
var shotMethods = map[string]bool{
	calls.MethodOpen: true, calls.MethodBack: true, calls.MethodForward: true, calls.MethodReload: true,
	calls.MethodAct: true, calls.MethodDialog: true, calls.MethodTab: true, calls.MethodStateLoad: true,
}

// tracer holds the traces in progress, by session name. The zero value is
// ready to use.
type tracer struct {
	mu     sync.Mutex // guards byName
	byName map[string]*trace
}

// trace is one session's trace in progress.
type trace struct {
	mu    sync.Mutex // guards the fields below
	t     calls.Trace
	shots int // bytes of screenshots kept
}

func (tr *tracer) get(session string) *trace {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.byName[session]
}

// traceCall runs trace.start and trace.stop.
func (m *Manager) traceCall(session, method string) (any, error) {
	m.tr.mu.Lock()
	defer m.tr.mu.Unlock()
	switch method {
	case calls.MethodTraceStart:
		if m.tr.byName[session] != nil {
			return nil, calls.Errorf(calls.ErrBadInput, "stop it first: "+calls.Cmd("trace stop FILE"),
				"session %q is already traced", session)
		}
		if m.tr.byName == nil {
			m.tr.byName = map[string]*trace{}
		}
		m.tr.byName[session] = &trace{t: calls.Trace{Format: calls.TraceFormat, Session: session, StartedUnixMS: time.Now().UnixMilli(), Entries: []calls.TraceEntry{}}}
		m.log.Info("trace started", "session", session)
		return &calls.TraceStarted{Session: session}, nil
	default: // calls.MethodTraceStop
		tr := m.tr.byName[session]
		if tr == nil {
			return nil, calls.Errorf(calls.ErrBadInput, "start one first: "+calls.Cmd("trace start")+", then use the session, then "+calls.Cmd("trace stop FILE"),
				"session %q is not traced", session)
		}
		delete(m.tr.byName, session)
		tr.mu.Lock()
		defer tr.mu.Unlock()
		tr.t.DurationMS = time.Now().UnixMilli() - tr.t.StartedUnixMS
		m.log.Info("trace stopped", "session", session, "calls", len(tr.t.Entries))
		return &tr.t, nil
	}
}

// traced runs a call of a traced session through do and keeps it.
func (m *Manager) traced(ctx context.Context, tr *trace, session, method string, params json.RawMessage, do func() (any, error)) (any, error) {
	e := calls.TraceEntry{Method: method, StartedUnixMS: time.Now().UnixMilli()}
	var act calls.ActRequest
	if method == calls.MethodAct {
		_ = json.Unmarshal(params, &act)
	}

	// The page's side of the call, read from the session itself (not
	// through Handle: these reads are not calls of the user's).
	var s *driver.Session
	if b := m.current(); b != nil {
		if ds, err := m.session(ctx, b, session); err == nil {
			s = ds
		}
	}
	var since int64
	if s != nil {
		if l, err := s.Console(ctx, calls.ConsoleRequest{Last: 1}); err == nil {
			since = l.Next
		}
		if shotMethods[method] {
			req := calls.ScreenshotRequest{}
			if act.Target != "" {
				req.Highlight = []string{act.Target}
			}
			e.Before = tr.picture(ctx, s, req)
		}
	}

	start := time.Now()
	res, err := do()
	e.DurationMS = time.Since(start).Milliseconds()

	if s == nil { // the call may have started the browser and the session
		if b := m.current(); b != nil {
			if ds, err := m.session(ctx, b, session); err == nil {
				s = ds
			}
		}
	}
	// Everything the trace keeps masks through the session's secret
	// registry (driver/registry.go), which the call itself filled: a
	// secret typed by act, form fill, doc insert or a sheet write.
	var known *secret.Set
	if s != nil {
		known = s.Secrets()
	}
	e.Params = maskParams(known, params)
	e.OK = err == nil
	if err != nil {
		e.Code, e.Error = calls.Code(err), known.Redact(err.Error())
	} else {
		e.Outcome = known.Redact(outcomeOf(res))
	}

	if s != nil && ctx.Err() == nil {
		if shotMethods[method] {
			e.After = tr.picture(ctx, s, calls.ScreenshotRequest{})
		}
		if l, err := s.Console(ctx, calls.ConsoleRequest{Since: since}); err == nil {
			for _, c := range l.Messages {
				c.Text, c.URL = known.Redact(c.Text), known.Redact(c.URL)
				e.Console = append(e.Console, c)
			}
		}
		if l, err := s.Network(ctx, calls.NetworkRequest{Since: since}); err == nil {
			for _, r := range l.Requests {
				r.URL = known.Redact(r.URL)
				e.Requests = append(e.Requests, r)
			}
		}
	}
	tr.add(e)
	return res, err
}

// picture takes a screenshot for the trace, or nil when it cannot (no
// page yet, a dialog open) or the trace has pictures enough.
func (tr *trace) picture(ctx context.Context, s calls.Session, req calls.ScreenshotRequest) []byte {
	tr.mu.Lock()
	full := tr.shots >= maxTraceShots
	tr.mu.Unlock()
	if full {
		return nil
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	img, err := s.Screenshot(cctx, req)
	if err != nil {
		return nil
	}
	return img.Data
}

func (tr *trace) add(e calls.TraceEntry) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if len(tr.t.Entries) >= maxTraceEntries {
		tr.t.Dropped++
		return
	}
	tr.shots += len(e.Before) + len(e.After)
	e.Index = len(tr.t.Entries) + 1
	tr.t.Entries = append(tr.t.Entries, e)
}

// maskParams masks a call's parameters: a value typed as a secret shows
// its mark (act's value, doc insert's text, form fill's and sheet fill's
// secrets by key, whether or not the call got as far as typing them),
// and what the session's registry knows or looks like a secret is masked.
func maskParams(known *secret.Set, params json.RawMessage) json.RawMessage {
	if len(params) == 0 || string(params) == "null" || string(params) == "{}" {
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal(params, &m); err == nil {
		if name, _ := m["secret"].(string); name != "" {
			for _, k := range []string{"value", "text"} {
				if _, ok := m[k]; ok {
					m[k] = secret.Mark(name)
				}
			}
		}
		if secrets, ok := m["secrets"].(map[string]any); ok {
			for k := range secrets {
				secrets[k] = secret.Mark(k)
			}
		}
		if b, err := json.Marshal(m); err == nil {
			params = b
		}
	}
	masked := known.Redact(string(params))
	if !json.Valid([]byte(masked)) {
		b, _ := json.Marshal(masked)
		return b
	}
	return json.RawMessage(masked)
}

// outcomeOf says in a line where a call left the page.
func outcomeOf(res any) string {
	switch r := res.(type) {
	case *calls.PageInfo:
		if r != nil {
			return fmt.Sprintf("at %s %q", r.URL, r.Title)
		}
	case *calls.Outcome:
		if r == nil {
			return ""
		}
		s := fmt.Sprintf("at %s %q", r.URL, r.Title)
		if r.Navigated {
			s = "navigated: " + s
		}
		if r.Dialog != nil {
			s += fmt.Sprintf("; %s opened: %q", r.Dialog.Named(), r.Dialog.Message)
		}
		if r.NotSent != nil {
			s += "; " + r.NotSent.Note()
		}
		return s
	}
	return ""
}
