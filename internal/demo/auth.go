package demo

import (
	"net/http"
	"net/url"
	"strings"
)

// The one account of the demo site.
const (
	DemoEmail    = "ann@example.com"
	DemoPassword = "demo-pass-123"
)

type loginData struct {
	Email string
	Next  string
	Error string
}

func (s *Site) loginForm(w http.ResponseWriter, r *http.Request) {
	s.render(w, r, http.StatusOK, "login", "Sign in", loginData{Next: safeNext(r.URL.Query().Get("next"))})
}

func (s *Site) login(w http.ResponseWriter, r *http.Request) {
	sid := s.sessionID(w, r)
	email := strings.TrimSpace(r.PostFormValue("email"))
	password := r.PostFormValue("password")
	next := safeNext(r.PostFormValue("next"))
	if !strings.EqualFold(email, DemoEmail) || password != DemoPassword {
		s.update(sid, func(st *SessionState) { st.FailedLogins++ })
		msg := "Wrong email or password. Try again."
		if email == "" || password == "" {
			msg = "Enter your email and password."
		}
		s.render(w, r, http.StatusUnauthorized, "login", "Sign in", loginData{Email: email, Next: next, Error: msg})
		return
	}
	// A real site would issue a new session ID here (session fixation); the
	// demo keeps it so that tests can follow one session across sign-in.
	s.update(sid, func(st *SessionState) { st.SignedIn, st.Email = true, DemoEmail })
	if next == "" {
		next = "/account"
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
}

func (s *Site) logout(w http.ResponseWriter, r *http.Request) {
	sid := s.sessionID(w, r)
	s.update(sid, func(st *SessionState) { st.SignedIn, st.Email = false, "" })
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

func (s *Site) account(w http.ResponseWriter, r *http.Request) {
	if !s.state(w, r).SignedIn {
		http.Redirect(w, r, "/login?next="+url.QueryEscape("/account"), http.StatusSeeOther)
		return
	}
	s.render(w, r, http.StatusOK, "account", "Your account", nil)
}

// safeNext returns next if it is a path on this site, else "". It keeps the
// sign-in redirect from sending a browser to another host ("//evil", "/\evil").
func safeNext(next string) string {
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.HasPrefix(next, `/\`) {
		return ""
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" {
		return ""
	}
	return next
}
