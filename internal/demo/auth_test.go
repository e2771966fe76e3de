package demo

import (
	"net/http"
	"net/url"
	"testing"
)

func TestLogin(t *testing.T) {
	tests := []struct {
		name         string
		email, pass  string
		next         string
		wantStatus   int
		wantLocation string
		wantSignedIn bool
		wantBody     string
	}{
		{name: "success", email: DemoEmail, pass: DemoPassword, wantStatus: http.StatusSeeOther, wantLocation: "/account", wantSignedIn: true},
		{name: "success with next", email: "Ann@Example.com", pass: DemoPassword, next: "/checkout?x=1", wantStatus: http.StatusSeeOther, wantLocation: "/checkout?x=1", wantSignedIn: true},
		{name: "offsite next ignored", email: DemoEmail, pass: DemoPassword, next: "//evil.example/", wantStatus: http.StatusSeeOther, wantLocation: "/account", wantSignedIn: true},
		{name: "wrong password", email: DemoEmail, pass: "nope", wantStatus: http.StatusUnauthorized, wantBody: "Wrong email or password"},
		{name: "unknown email", email: "bob@example.com", pass: DemoPassword, wantStatus: http.StatusUnauthorized, wantBody: "Wrong email or password"},
		{name: "empty", wantStatus: http.StatusUnauthorized, wantBody: "Enter your email and password"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			site, b := newSite(t)
			wantStatus(t, b.get("/login"), http.StatusOK)
			r := b.postForm("/login", url.Values{"email": {tt.email}, "password": {tt.pass}, "next": {tt.next}})
			wantStatus(t, r, tt.wantStatus)
			if r.Location != tt.wantLocation {
				t.Errorf("Location = %q, want %q", r.Location, tt.wantLocation)
			}
			wantContains(t, r.Body, tt.wantBody)
			st := site.Session(b.sid())
			if st.SignedIn != tt.wantSignedIn {
				t.Errorf("SignedIn = %v, want %v", st.SignedIn, tt.wantSignedIn)
			}
			if tt.wantSignedIn && st.Email != DemoEmail {
				t.Errorf("Email = %q, want %q", st.Email, DemoEmail)
			}
			if !tt.wantSignedIn && st.FailedLogins != 1 {
				t.Errorf("FailedLogins = %d, want 1", st.FailedLogins)
			}
		})
	}
}

func TestAccountNeedsSignIn(t *testing.T) {
	_, b := newSite(t)
	r := b.get("/account")
	wantStatus(t, r, http.StatusSeeOther)
	if r.Location != "/login?next=%2Faccount" {
		t.Errorf("Location = %q", r.Location)
	}
	login := b.get(r.Location)
	wantContains(t, login.Body, `name="next" value="/account"`, "Sign in</button>")

	b.postForm("/login", url.Values{"email": {DemoEmail}, "password": {DemoPassword}})
	acct := b.get("/account")
	wantStatus(t, acct, http.StatusOK)
	wantContains(t, acct.Body, DemoEmail, "Sign out")

	wantStatus(t, b.postForm("/logout", nil), http.StatusSeeOther)
	wantStatus(t, b.get("/account"), http.StatusSeeOther)
}

func TestSafeNext(t *testing.T) {
	tests := map[string]string{
		"":                   "",
		"/cart":              "/cart",
		"/a?b=c#d":           "/a?b=c#d",
		"//evil.example":     "",
		`/\evil.example`:     "",
		"https://evil.com/x": "",
		"cart":               "",
	}
	for in, want := range tests {
		if got := safeNext(in); got != want {
			t.Errorf("safeNext(%q) = %q, want %q", in, got, want)
		}
	}
}
