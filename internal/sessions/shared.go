package sessions

import (
	"context"
	"errors"
	"sync"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
)

// A manager over a browser it does not own (NewShared). The daemon's
// manager owns its Chromium (New); a test of the handler or of a front
// over it (MCP, test plans, batches) needs only sessions, and starting a
// Chromium for each such test cost ~3 s of CPU under the race detector,
// some twenty times a run. Those tests share their package's one browser
// (drivertest.Driver) instead, and stay apart as they did with a browser
// each: a session is a browser context of its own (cookies, storage,
// tabs), and a session name is held by one manager over the browser at a
// time, so two managers never act in one session.

// claims are the session names held in each shared browser, with the
// manager that holds each. A name is claimed on the manager's first call
// in that session and released when the manager closes the session or
// itself.
var claims = struct {
	sync.Mutex
	by map[*driver.Browser]map[string]*Manager
}{by: map[*driver.Browser]map[string]*Manager{}}

// NewShared returns a manager whose sessions open in b, a browser that
// someone else started and closes. Its Close closes the sessions it
// opened, never b; its session list and status count only them. A
// session name held by another manager over b, or open in b by someone
// else, is refused. When b dies, the manager says so and starts none.
func NewShared(b *driver.Browser) *Manager {
	m := New(driver.Options{})
	m.shared, m.browser = b, b
	return m
}

// sharedBrowser is browserFor for a manager over a shared browser. A
// dead one is told on every call: its owner, not the manager, would start
// another.
func (m *Manager) sharedBrowser() (*driver.Browser, error) {
	if !m.shared.Alive() {
		return nil, calls.Errorf(calls.ErrBrowserGone, "", "the shared browser this manager was given is gone")
	}
	return m.shared, nil
}

// session returns b's session name, opening it if need be: in a shared
// browser, only one this manager holds or may claim.
func (m *Manager) session(ctx context.Context, b *driver.Browser, name string) (*driver.Session, error) {
	if m.shared != nil {
		if err := m.claim(name); err != nil {
			return nil, err
		}
	}
	return b.Session(ctx, name)
}

// lookup returns b's session name if it is open (and, in a shared
// browser, this manager's).
func (m *Manager) lookup(b *driver.Browser, name string) (*driver.Session, bool) {
	if m.shared != nil && !m.holds(name) {
		return nil, false
	}
	return b.Lookup(name)
}

// sessionsOf returns b's sessions this manager answers for: all of them,
// or in a shared browser the ones it holds.
func (m *Manager) sessionsOf(b *driver.Browser) []*driver.Session {
	all := b.Sessions()
	if m.shared == nil {
		return all
	}
	out := all[:0]
	for _, s := range all {
		if m.holds(s.Name()) {
			out = append(out, s)
		}
	}
	return out
}

// closeSession closes b's session name: in a shared browser only one this
// manager holds, whose name it then gives up.
func (m *Manager) closeSession(b *driver.Browser, name string) error {
	if m.shared == nil {
		return b.CloseSession(name)
	}
	if !m.holds(name) {
		return nil
	}
	err := b.CloseSession(name)
	m.release(name)
	return err
}

// closeShared is Close for a manager over a shared browser.
func (m *Manager) closeShared() error {
	var errs []error
	for _, s := range m.sessionsOf(m.shared) {
		errs = append(errs, m.shared.CloseSession(s.Name()))
	}
	claims.Lock()
	for name, o := range claims.by[m.shared] {
		if o == m {
			delete(claims.by[m.shared], name)
		}
	}
	claims.Unlock()
	return errors.Join(errs...)
}

// claim makes name this manager's in its shared browser, unless another
// manager holds it or it is open there already by someone else.
func (m *Manager) claim(name string) error {
	claims.Lock()
	defer claims.Unlock()
	held := claims.by[m.shared]
	if held == nil {
		held = map[string]*Manager{}
		claims.by[m.shared] = held
	}
	switch o, ok := held[name]; {
	case ok && o == m:
		return nil
	case ok:
		return calls.Errorf(calls.ErrBadInput, "use another session name", "session %q belongs to another manager over this browser", name)
	}
	if _, open := m.shared.Lookup(name); open {
		return calls.Errorf(calls.ErrBadInput, "use another session name", "session %q is open in this browser already, not by this manager", name)
	}
	held[name] = m
	return nil
}

// holds reports whether this manager holds name in its shared browser.
func (m *Manager) holds(name string) bool {
	claims.Lock()
	defer claims.Unlock()
	return claims.by[m.shared][name] == m
}

// release gives up name in the shared browser.
func (m *Manager) release(name string) {
	claims.Lock()
	defer claims.Unlock()
	if claims.by[m.shared][name] == m {
		delete(claims.by[m.shared], name)
	}
}
