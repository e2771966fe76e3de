package policy

import (
	"errors"
	"net/url"
	"strings"
	"testing"
)

func TestCheckURL(t *testing.T) {
	opts := Options{
		Allow: []string{"example.com", "*.example.com", "https://docs.other.test/app/", "http://localhost:3000/", "127.0.0.1", "*.localhost", "10.0.0.5"},
		Block: []string{"*.ads.example.com", "https://example.com/admin", "evil*.example.com"},
	}
	p, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		url    string
		reason string // "" allowed; "private" a PrivateAddressError
		rule   string
	}{
		{"https://example.com/", "", ""},
		{"https://EXAMPLE.com./x", "", ""},
		{"http://example.com:8080/x", "", ""},
		{"https://www.example.com/", "", ""},
		{"https://a.b.example.com/", "", ""},
		{"https://badexample.com/", ReasonNotAllowed, ""},
		{"https://example.com.evil.test/", ReasonNotAllowed, ""},
		{"https://example.com@evil.test/", ReasonNotAllowed, ""},
		{"https://x.ads.example.com/", ReasonBlocked, "*.ads.example.com"},
		{"https://ads.example.com/", "", ""}, // *.ads.example.com is subdomains only
		{"https://eviltwin.example.com/", ReasonBlocked, "evil*.example.com"},
		{"https://example.com/admin", ReasonBlocked, "https://example.com/admin"},
		{"https://example.com/admin/users", ReasonBlocked, "https://example.com/admin"},
		{"https://example.com/administrator", "", ""},
		{"https://example.com/public/../admin/x", ReasonBlocked, "https://example.com/admin"},
		{"http://example.com/admin", "", ""}, // the prefix names https
		{"https://example.com:444/admin", "", ""},
		{"https://example.com:443/admin", ReasonBlocked, "https://example.com/admin"},
		{"https://docs.other.test/app/", "", ""},
		{"https://docs.other.test/app/page?q=1", "", ""},
		{"https://docs.other.test/app", ReasonNotAllowed, ""}, // the prefix ends in a slash
		{"https://docs.other.test/application", ReasonNotAllowed, ""},
		{"https://docs.other.test/", ReasonNotAllowed, ""},
		{"http://localhost:3000/dev", "", ""},
		{"http://localhost:3001/dev", ReasonNotAllowed, ""},
		{"http://app.localhost/", "", ""},
		{"http://127.0.0.1:9999/", "", ""},
		{"http://2130706433/", "", ""}, // 127.0.0.1 in decimal
		{"http://0x7f.1/", "", ""},
		{"http://10.0.0.5/", "private", ""}, // allowed by the rules, refused by the address
		{"http://0x7f.0.0.0x100/", ReasonBadURL, ""},
		{"about:blank", "", ""},
		{"about:srcdoc", "", ""},
		{"about:settings", ReasonScheme, ""},
		{"data:text/html,<h1>hi</h1>", "", ""},
		{"blob:https://example.com/5f0c", "", ""},
		{"blob:https://x.ads.example.com/5f0c", ReasonBlocked, "*.ads.example.com"},
		{"file:///etc/passwd", ReasonFile, ""},
		{"file://fileserver/share/a.html", ReasonBadURL, ""},
		{"chrome://settings", ReasonScheme, ""},
		{"javascript:alert(1)", ReasonScheme, ""},
		{"view-source:https://example.com/", ReasonScheme, ""},
		{"ftp://example.com/", ReasonScheme, ""},
		{"wss://www.example.com/socket", "", ""},
		{"https:///nohost", ReasonBadURL, ""},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			u, err := url.Parse(tt.url)
			if err != nil {
				t.Fatal(err)
			}
			err = p.CheckURL(u)
			switch tt.reason {
			case "":
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			case "private":
				if !errors.Is(err, ErrPrivateAddress) {
					t.Fatalf("err = %v, want a private address refusal", err)
				}
				return
			}
			var be *BlockedError
			if !errors.As(err, &be) || !errors.Is(err, ErrBlockedURL) {
				t.Fatalf("err = %v, want a BlockedError", err)
			}
			if be.Reason != tt.reason || be.Rule != tt.rule {
				t.Errorf("reason, rule = %q, %q; want %q, %q", be.Reason, be.Rule, tt.reason, tt.rule)
			}
		})
	}
}

func TestCheckURLEmptyAllowAllowsAll(t *testing.T) {
	p, err := New(Options{Block: []string{"blocked.test"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"https://anything.test/", "http://93.184.215.14/"} {
		if err := p.CheckURL(mustURL(t, s)); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
	if err := p.CheckURL(mustURL(t, "https://blocked.test/")); err == nil {
		t.Error("blocked.test allowed")
	}
}

func TestStarRules(t *testing.T) {
	p, err := New(Options{Allow: []string{"*"}, Block: []string{"*"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.CheckURL(mustURL(t, "https://example.com/")); err == nil {
		t.Error("block * does not win over allow *")
	}
	if err := p.CheckURL(mustURL(t, "about:blank")); err != nil {
		t.Errorf("about:blank: %v", err)
	}
}

// TestBlockedErrorMessage: a refusal says what was refused and why, in
// words for any reader of the policy package: no CLI flag, no waymark.toml
// (a Go program's policy comes from its own policy.Options); what to
// change is the front's hint to give.
func TestBlockedErrorMessage(t *testing.T) {
	p, _ := New(Options{Allow: []string{"ok.test"}, Block: []string{"*.ads.example"}})
	tests := []struct{ url, want string }{
		{"https://x.ads.example/", `"https://x.ads.example/" is blocked by the policy rule "*.ads.example"`},
		{"https://other.test/", `"https://other.test/" is not in the policy's allow list`},
		{"file:///etc/passwd", `"file:///etc/passwd" is refused: the policy does not allow local files`},
		{"chrome://settings", `"chrome://settings" is refused: waymark opens only http, https, about:blank and data: URLs, and local files when allowed`},
	}
	for _, tt := range tests {
		if err := p.CheckURL(mustURL(t, tt.url)); err == nil || err.Error() != tt.want {
			t.Errorf("got  %v\nwant %s", err, tt.want)
		}
	}
	for _, reason := range []string{ReasonScheme, ReasonBlocked, ReasonNotAllowed, ReasonBadURL, ReasonFile, ReasonFileFromWeb} {
		msg := (&BlockedError{URL: "file:///tmp/a", Reason: reason, Rule: "x.test"}).Error()
		if strings.Contains(msg, "--") || strings.Contains(msg, "waymark.toml") || strings.Contains(msg, "[policy]") || strings.Contains(msg, "waymark open ") {
			t.Errorf("%s: a front's advice in the policy's own text: %s", reason, msg)
		}
	}
	long := "https://x.ads.example/" + strings.Repeat("a", 500)
	if err := p.CheckURL(mustURL(t, long)); err == nil || len(err.Error()) > 400 {
		t.Errorf("long URL not capped: %d bytes", len(err.Error()))
	}
}

// TestFilesSetting: a local file opens only with Options.Files, a file of
// another machine never, and the other schemes stay refused (issue 28).
func TestFilesSetting(t *testing.T) {
	on, err := New(Options{Files: true, Allow: []string{"ok.test"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"file:///tmp/report.html", "file://localhost/tmp/report.html"} {
		if err := on.CheckURL(mustURL(t, u)); err != nil {
			t.Errorf("%s with files on: %v", u, err)
		}
	}
	for u, reason := range map[string]string{"file://fileserver/share/a.html": ReasonBadURL, "chrome://settings": ReasonScheme} {
		var b *BlockedError
		if err := on.CheckURL(mustURL(t, u)); !errors.As(err, &b) || b.Reason != reason {
			t.Errorf("%s with files on: %v, want %s", u, err, reason)
		}
	}
}

func TestNewBadRules(t *testing.T) {
	tests := []struct {
		opts Options
		want string // in the error
	}{
		{Options{Allow: []string{""}}, `allow rule "": empty rule`},
		{Options{Block: []string{"example.com/path"}}, `block rule "example.com/path": a host rule has no path`},
		{Options{Block: []string{"localhost:3000"}}, `a host rule has no port`},
		{Options{Allow: []string{"exa mple.com"}}, `cannot appear in a host`},
		{Options{Allow: []string{"bücher.example"}}, `punycode`},
		{Options{Allow: []string{"ftp://example.com/"}}, `must start with http://`},
		{Options{Allow: []string{"https://example.com/?q=1"}}, `no user, query or fragment`},
		{Options{Allow: []string{"https:///x"}}, `needs a host`},
		{Options{Allow: []string{"https://example.com/app/*"}}, `leave out the '*'`},
		{Options{Allow: []string{"**.example.com"}}, `"**"`},
		{Options{Allow: []string{"1.2.3.4.5"}}, `not a host name`},
		{Options{Allow: []string{"ok.test", "%"}}, `allow rule "%"`},
	}
	for _, tt := range tests {
		_, err := New(tt.opts)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New(%+v) = %v, want an error with %q", tt.opts, err, tt.want)
		}
	}
}

func TestGlob(t *testing.T) {
	tests := []struct {
		pattern, s string
		want       bool
	}{
		{"*.example.com", "a.example.com", true},
		{"*.example.com", "a.b.example.com", true},
		{"*.example.com", "example.com", false},
		{"*.example.com", "aexample.com", false},
		{"ads*.example.com", "ads.example.com", true},
		{"ads*.example.com", "ads2.example.com", true},
		{"ads*.example.com", "xads.example.com", false},
		{"*.cdn.*.com", "a.cdn.b.com", true},
		{"*", "anything", true},
	}
	for _, tt := range tests {
		if got := glob(tt.pattern, tt.s); got != tt.want {
			t.Errorf("glob(%q, %q) = %v", tt.pattern, tt.s, got)
		}
	}
}

func TestCanonHost(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Example.COM.", "example.com"},
		{"[::1]", "::1"},
		{"[0:0::1]", "::1"},
		{"2130706433", "127.0.0.1"},
		{"0x7f000001", "127.0.0.1"},
		{"0177.0.0.1", "127.0.0.1"},
		{"127.1", "127.0.0.1"},
		{"10.1.258", "10.1.1.2"},
		{"0xa9.0xfe.0xa9.0xfe", "169.254.169.254"},
		{"1.2.3.4.", "1.2.3.4"},
		{"host123.example", "host123.example"},
		{"example.123abc", "example.123abc"},
	}
	for _, tt := range tests {
		got, _, err := canonHost(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("canonHost(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "1.2.3.4.5", "256.1.1.1", "4294967296", "09.1.1.1", "[1.2.3.4]", "[::1", "a.0x"} {
		if got, _, err := canonHost(bad); err == nil {
			t.Errorf("canonHost(%q) = %q, want an error", bad, got)
		}
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
