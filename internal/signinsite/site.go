// Package signinsite is the tests' site whose sessions expire: /login
// signs a user in (a form: username, password, device name; POST), /items
// is the page behind it, and /api/items answers only a live session. It
// counts what reaches it, so that a test of a recipe's sign-in routine
// (relogin) counts sign-ins and calls at the server rather than trusting
// what waymark says it did. The CLI's, MCP's and a batch row's tests of
// relogin share it; only tests import it.
package signinsite

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"

	"github.com/waymark-dev/waymark/calls"
)

// Device is the device name the form must be given: a value typed, not
// secret, that a recorded sign-in keeps as a variable.
const Device = "kitchen-laptop-7"

// Site is the site; serve it with httptest.NewServer.
type Site struct {
	mu       sync.Mutex
	password string
	users    []string          // who may sign in; none: anyone
	live     map[string]string // session id → user
	n        int
	logins   map[string]int // since the last Counts, by user
	calls    map[string]int // since the last Counts, by ?row=
	total    [2]int         // sign-ins and calls since the start
	refusing bool           // every session is refused, signed in or not
}

// New returns a site whose password is password and where users may sign
// in (anyone, when none is named).
func New(password string, users ...string) *Site {
	return &Site{password: password, users: users, live: map[string]string{}, logins: map[string]int{}, calls: map[string]int{}}
}

func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case r.URL.Path == "/login" && r.Method == http.MethodGet:
		fmt.Fprint(w, `<!doctype html><title>Sign in</title><h1>Sign in</h1>
<form method="post" action="/login"><label>Username <input name="username"></label>
<label>Password <input type="password" name="password"></label>
<label>Device name <input name="device"></label><button>Sign in</button></form>`)
	case r.URL.Path == "/login" && r.Method == http.MethodPost:
		user := r.FormValue("username")
		s.logins[user]++
		s.total[0]++
		if (len(s.users) > 0 && !slices.Contains(s.users, user)) || r.FormValue("device") != Device || r.FormValue("password") != s.password {
			http.Error(w, "wrong password", http.StatusForbidden)
			return
		}
		s.n++
		sid := fmt.Sprintf("s%d", s.n)
		s.live[sid] = user
		http.SetCookie(w, &http.Cookie{Name: "sid", Value: sid, Path: "/", HttpOnly: true})
		http.Redirect(w, r, "/items", http.StatusSeeOther)
	case r.URL.Path == "/items":
		fmt.Fprint(w, `<!doctype html><title>Items</title><h1>Items</h1><ul><li>Lamp</li><li>Chair</li></ul>`)
	case r.URL.Path == "/api/items":
		s.calls[r.URL.Query().Get("row")]++
		s.total[1]++
		c, err := r.Cookie("sid")
		if err != nil || s.live[c.Value] == "" || s.refusing {
			http.Error(w, `{"error":"sign in"}`, http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"items":[{"name":"Lamp","user":%q},{"name":"Chair","user":%q}]}`, s.live[c.Value], s.live[c.Value])
	default:
		http.NotFound(w, r)
	}
}

// Counts returns the sign-ins by user and the calls by the row they name
// (?row=) since the last Counts or Take, and starts counting again.
func (s *Site) Counts() (logins, calls map[string]int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	logins, calls = s.logins, s.calls
	s.logins, s.calls = map[string]int{}, map[string]int{}
	return logins, calls
}

// Take returns the number of sign-ins and calls since the last Counts or
// Take, and starts counting again.
func (s *Site) Take() (logins, calls int) {
	l, c := s.Counts()
	for _, n := range l {
		logins += n
	}
	for _, n := range c {
		calls += n
	}
	return logins, calls
}

// Total returns the number of sign-ins and calls since the site started.
func (s *Site) Total() (logins, calls int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total[0], s.total[1]
}

// Expire ends every session at the server.
func (s *Site) Expire() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.live)
}

// Refuse makes the site refuse every session, signed in or not (on), or
// answer a live one again (off).
func (s *Site) Refuse(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refusing = on
}

// Page is what SignIn needs of a session: a page to open and act on
// (calls.Session has both).
type Page interface {
	Open(ctx context.Context, req calls.OpenRequest) (*calls.PageInfo, error)
	Act(ctx context.Context, req calls.ActRequest) (*calls.Outcome, error)
}

// SignIn does on d what a person does to sign in on the site served at
// base, as user with password: open /login, fill the username and the
// password, type the device name, press Sign in. Tests record it as the
// sign-in routine.
func SignIn(ctx context.Context, d Page, base, user, password string) error {
	if _, err := d.Open(ctx, calls.OpenRequest{URL: base + "/login"}); err != nil {
		return err
	}
	for _, a := range []calls.ActRequest{
		{Kind: calls.ActFill, Target: "label=Username", Value: user},
		{Kind: calls.ActFill, Target: "label=Password", Value: password},
		{Kind: calls.ActType, Target: "label=Device name", Value: Device},
		{Kind: calls.ActClick, Target: `role=button[name="Sign in"]`},
	} {
		if _, err := d.Act(ctx, a); err != nil {
			return fmt.Errorf("sign in: %s %s: %w", a.Kind, a.Target, err)
		}
	}
	return nil
}
