package secret

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"strings"
	"sync"
	"testing"
)

func TestSetRedactEncodings(t *testing.T) {
	const pw = `p@ss w0rd/"<&>+x`
	var s Set
	s.Add("pw", pw)
	jsonQuoted, _ := json.Marshal(pw)
	basic := base64.StdEncoding.EncodeToString([]byte("ann:" + pw))
	tests := []struct{ name, in string }{
		{"raw", "typed " + pw + " into Password"},
		{"query", "https://x.example/login?p=" + url.QueryEscape(pw) + "&next=/"},
		{"path", "https://x.example/" + url.PathEscape(pw)},
		{"json", `{"password":` + string(jsonQuoted) + `}`},
		{"base64", "auth " + base64.StdEncoding.EncodeToString([]byte(pw))},
		{"base64url", base64.RawURLEncoding.EncodeToString([]byte(pw))},
		{"basic auth", "Authorization: Basic " + basic},
		{"hex", hex.EncodeToString([]byte(pw))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := s.Redact(tt.in)
			if !strings.Contains(got, "«secret:pw»") {
				t.Errorf("Redact(%q) = %q: no mark", tt.in, got)
			}
			if name, ok := s.Contains(tt.in); !ok || name != "pw" {
				t.Errorf("Contains(%q) = %q, %v", tt.in, name, ok)
			}
			if _, ok := s.Contains(got); ok {
				t.Errorf("Redact(%q) = %q still contains a form of the value", tt.in, got)
			}
		})
	}
}

func TestSetRedactMarks(t *testing.T) {
	var s Set
	s.Add("email_pw", "correct horse battery")
	s.Add("pin", "123") // short: looked for only where it stands alone
	tests := []struct{ in, want string }{
		{"pw is correct horse battery.", "pw is «secret:email_pw»."},
		{"pin 123 and key " + githubToken, "pin «secret:pin» and key «secret»"},
		{"order 41235", "order 41235"},
		{"nothing here", "nothing here"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := s.Redact(tt.in); got != tt.want {
			t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	var nilSet *Set
	if got := nilSet.Redact("key " + githubToken); got != "key «secret»" {
		t.Errorf("nil Set Redact = %q", got)
	}
	if got := Redact("key " + githubToken); got != "key «secret»" {
		t.Errorf("Redact = %q", got)
	}
}

// A name that holds its own value, or a value with the mark's brackets,
// must not bring the value back through the mark.
func TestSetRedactMarkCannotLeak(t *testing.T) {
	tests := []struct{ name, value, in string }{
		{"secret", "secret", "the secret is out"},
		{"x", "»x»", "a»x»b"},
		{"k", "cret:k", "«secret:k»"},
	}
	for _, tt := range tests {
		var s Set
		s.Add(tt.name, tt.value)
		if got := s.Redact(tt.in); strings.Contains(got, tt.value) {
			t.Errorf("Add(%q, %q); Redact(%q) = %q", tt.name, tt.value, tt.in, got)
		}
	}
}

func TestSetConcurrent(t *testing.T) {
	var s Set
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			v := strings.Repeat(string(rune('a'+i)), 6)
			s.Add("v", v)
			if got := s.Redact("x " + v + " y"); strings.Contains(got, v) {
				t.Errorf("Redact leaked %q: %q", v, got)
			}
			s.Contains(v)
		})
	}
	wg.Wait()
}

func FuzzRedact(f *testing.F) {
	f.Add("hunter2!", "login with hunter2! now")
	f.Add("abcd", "aabcdabcd")
	f.Add("«sec", "«secret»")
	f.Add("secret", "«secret:secret»")
	f.Add("p@ss w0rd", "?q=p%40ss+w0rd")
	f.Add("zzzz", "key "+githubToken)
	f.Fuzz(func(t *testing.T, v, x string) {
		_ = Redact(x)
		var s Set
		s.Add("n", v)
		got := s.Redact(x)
		if len(v) >= MinKnown && strings.Contains(got, v) {
			t.Errorf("Add(n, %q); Redact(%q) = %q", v, x, got)
		}
	})
}

// TestRedactTwice: a mark of an earlier redaction is left alone, so that
// text redacted twice reads as text redacted once.
func TestRedactTwice(t *testing.T) {
	var s Set
	s.Add("password", "hunter2-Correct-Horse")
	once := s.Redact("your password is hunter2-Correct-Horse, token sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345")
	if twice := s.Redact(once); twice != once {
		t.Fatalf("redacting twice changed the text:\n once: %s\ntwice: %s", once, twice)
	}
	if !strings.Contains(once, "«secret:password»") {
		t.Fatalf("no named mark: %s", once)
	}
}
