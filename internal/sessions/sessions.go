// Package sessions is the daemon's handler: it owns the browser (started on
// the first page call, replaced when it dies) and routes each request to
// the named session's driver call.
package sessions

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/rpc"
)

// Manager holds the browser and its sessions for the daemon.
type Manager struct {
	opts   driver.Options
	log    *slog.Logger
	launch func(ctx context.Context, opts driver.Options) (*driver.Browser, error)
	// shared is the browser of a manager that does not own it
	// (NewShared, shared.go); nil for the daemon's, which owns its own.
	shared *driver.Browser

	// mu guards browser, lostBrowser and lost. It is held while a browser
	// starts, so concurrent first requests start one browser.
	mu          sync.Mutex
	browser     *driver.Browser
	lostBrowser bool            // the last browser died with no session open; say so once on the next call
	lost        map[string]bool // sessions the last browser took with it, each told once on its next call

	rec recorder // recordings by hand in progress (record.go)
	tr  tracer   // traces in progress (trace.go)
}

// New returns a manager that will start a browser with opts on the first
// call that needs one.
func New(opts driver.Options) *Manager {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Manager{opts: opts, log: log, launch: driver.Launch}
}

// browserFor returns a live browser for session's call, starting one when
// there is none and replacing one that died. Each session the dead browser
// held is told of the death on its next call, once: a session that went
// on silently in the new browser would act on a blank page with refs it
// read in the old one (two rows of a batch, each on a session of its own,
// saw one report between them).
func (m *Manager) browserFor(ctx context.Context, session string) (*driver.Browser, error) {
	if m.shared != nil {
		return m.sharedBrowser()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.browser != nil && !m.browser.Alive() {
		m.log.Warn("browser died; starting a new one on the next call")
		for _, s := range m.browser.Sessions() {
			if m.lost == nil {
				m.lost = map[string]bool{}
			}
			m.lost[s.Name()] = true
		}
		m.lostBrowser = len(m.lost) == 0
		_ = m.browser.Close()
		m.browser = nil
	}
	if m.lostBrowser || m.lost[session] {
		m.lostBrowser = false
		delete(m.lost, session)
		if m.browser == nil {
			b, err := m.launch(ctx, m.opts)
			if err != nil {
				return nil, err
			}
			m.browser = b
		}
		return nil, calls.Errorf(calls.ErrBrowserGone, "a new browser is running now: open your page again and take a new snapshot",
			"the browser had stopped (crashed or killed); its sessions and pages are gone")
	}
	if m.browser == nil {
		b, err := m.launch(ctx, m.opts)
		if err != nil {
			return nil, err
		}
		m.browser = b
	}
	return m.browser, nil
}

// current returns the browser if one runs, without starting one.
func (m *Manager) current() *driver.Browser {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.browser != nil && m.browser.Alive() {
		return m.browser
	}
	return nil
}

// Status reports the browser and the number of sessions, for daemon.status.
func (m *Manager) Status() (browser string, sessions int) {
	if b := m.current(); b != nil {
		return b.Describe(), len(m.sessionsOf(b))
	}
	return "", 0
}

// Close closes the browser.
func (m *Manager) Close() error {
	if m.shared != nil {
		return m.closeShared()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.browser == nil {
		return nil
	}
	err := m.browser.Close()
	m.browser = nil
	return err
}

// Handle runs one request for the session.
func (m *Manager) Handle(ctx context.Context, session, method string, params json.RawMessage) (any, error) {
	// Tracing (trace.go): trace.start and trace.stop, and every session
	// call of a traced session.
	switch method {
	case calls.MethodTraceStart, calls.MethodTraceStop:
		return m.traceCall(session, method)
	}
	if tr := m.tr.get(session); tr != nil && (sessionCalls[method] != nil || m.recording(session, method)) {
		return m.traced(ctx, tr, session, method, params, func() (any, error) { return m.handle(ctx, session, method, params) })
	}
	return m.handle(ctx, session, method, params)
}

func (m *Manager) handle(ctx context.Context, session, method string, params json.RawMessage) (any, error) {
	// Recording by hand (record.go): record.start and record.stop, and
	// the navigations and element actions of a session that records.
	if m.recording(session, method) {
		return m.record(ctx, session, method, params)
	}
	switch method {
	case rpc.MethodSessionList:
		list := rpc.SessionList{Sessions: []rpc.SessionInfo{}}
		if b := m.current(); b != nil {
			for _, s := range m.sessionsOf(b) {
				tabs, url := s.Info()
				list.Sessions = append(list.Sessions, rpc.SessionInfo{Name: s.Name(), Tabs: tabs, URL: url, Batch: rpc.IsWorkerSession(s.Name())})
			}
		}
		return list, nil
	case rpc.MethodSessionClose:
		if b := m.current(); b != nil {
			return calls.Empty{}, m.closeSession(b, session)
		}
		return calls.Empty{}, nil
	case rpc.MethodSessionCloseAll:
		if b := m.current(); b != nil {
			for _, s := range m.sessionsOf(b) {
				if err := m.closeSession(b, s.Name()); err != nil {
					return nil, err
				}
			}
		}
		return calls.Empty{}, nil
	}
	call, ok := sessionCalls[method]
	if !ok {
		return nil, calls.Errorf(calls.ErrBadInput, "update waymark: the CLI and the daemon may be of different versions", "unknown method %q", method)
	}
	b, err := m.browserFor(ctx, session)
	if err != nil {
		return nil, err
	}
	s, err := m.session(ctx, b, session)
	if err != nil {
		return nil, err
	}
	// Every reply and error leaves masked by the session's secret
	// registry: the driver masks each call's own reply (driver/registry.go),
	// so the Go API and the daemon's fronts see the same.
	return call(ctx, s, params)
}

// call runs one session call with JSON params. The table is written over
// calls.Session, which *driver.Session satisfies, so that a test can run it
// against calls.Remote and prove the two agree on every method.
type call func(ctx context.Context, s calls.Session, params json.RawMessage) (any, error)

// typed adapts a session method with a request struct.
func typed[P any, R any](f func(calls.Session, context.Context, P) (R, error)) call {
	return func(ctx context.Context, s calls.Session, params json.RawMessage) (any, error) {
		var p P
		if len(params) > 0 && string(params) != "null" {
			if err := json.Unmarshal(params, &p); err != nil {
				return nil, calls.Errorf(calls.ErrBadInput, "", "bad params: %v", err)
			}
		}
		return f(s, ctx, p)
	}
}

// bare adapts a session method that takes no request.
func bare[R any](f func(calls.Session, context.Context) (R, error)) call {
	return func(ctx context.Context, s calls.Session, _ json.RawMessage) (any, error) {
		return f(s, ctx)
	}
}

// sessionCalls serves every method of calls.Session under its method name
// (table_test.go checks both ways).
var sessionCalls = map[string]call{
	calls.MethodOpen:       typed(calls.Session.Open),
	calls.MethodBack:       bare(calls.Session.Back),
	calls.MethodForward:    bare(calls.Session.Forward),
	calls.MethodReload:     bare(calls.Session.Reload),
	calls.MethodSnapshot:   typed(calls.Session.Snapshot),
	calls.MethodAct:        typed(calls.Session.Act),
	calls.MethodGet:        typed(calls.Session.Get),
	calls.MethodWait:       typed(calls.Session.Wait),
	calls.MethodEval:       typed(calls.Session.Eval),
	calls.MethodScreenshot: typed(calls.Session.Screenshot),
	calls.MethodPDF:        bare(calls.Session.PDF),
	calls.MethodTab:        typed(calls.Session.Tab),
	calls.MethodCookies:    typed(calls.Session.Cookies),
	calls.MethodStorage:    typed(calls.Session.Storage),
	calls.MethodStateSave:  bare(calls.Session.StateSave),
	calls.MethodStateLoad:  typed(calls.Session.StateLoad),
	calls.MethodViewport:   typed(calls.Session.Viewport),
	calls.MethodDialog:     typed(calls.Session.Dialog),
	calls.MethodLocate:     typed(calls.Session.Locate),
	calls.MethodFind:       typed(calls.Session.Find),
	calls.MethodProblems:   typed(calls.Session.Problems),
	calls.MethodDownloads:  bare(calls.Session.Downloads),
	calls.MethodForm:       typed(calls.Session.Form),
	calls.MethodFormFill:   typed(calls.Session.FillForm),
	calls.MethodFormReview: typed(calls.Session.FormReview),
	calls.MethodNetLog:     typed(calls.Session.NetLog),
	calls.MethodFetch:      typed(calls.Session.Fetch),
	calls.MethodPageTool:   typed(calls.Session.PageTool),
	calls.MethodAPICall:    typed(calls.Session.CallAPI),
	calls.MethodConsole:    typed(calls.Session.Console),
	calls.MethodNetwork:    typed(calls.Session.Network),

	// Network capture (driver/netcapture.go).
	calls.MethodCaptureStart: typed(calls.Session.StartCapture),
	calls.MethodCaptureStop:  typed(calls.Session.StopCapture),

	// Spreadsheets (driver/sheet.go).
	calls.MethodSheetRead:  typed(calls.Session.SheetRead),
	calls.MethodSheetDump:  typed(calls.Session.SheetDump),
	calls.MethodSheetWrite: typed(calls.Session.SheetWrite),
	calls.MethodSheetFill:  typed(calls.Session.SheetFill),
	calls.MethodDocRead:    typed(calls.Session.DocRead),
	calls.MethodDocFind:    typed(calls.Session.DocFind),
	calls.MethodDocInsert:  typed(calls.Session.DocInsert),
}

var _ calls.Caller = (*Manager)(nil)

// Call makes one call in-process, with the same JSON in and out as over
// the daemon's socket: a front (MCP, test plans, tests) can run without a
// daemon. calls.Remote over a Manager is the typed session.
func (m *Manager) Call(ctx context.Context, session, method string, params, result any) error {
	p, err := json.Marshal(params)
	if err != nil {
		return err
	}
	res, err := m.Handle(ctx, session, method, p)
	if err != nil {
		return err
	}
	if result == nil {
		return nil
	}
	b, err := json.Marshal(res)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, result)
}
