package secret

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Kind names what the heuristic took a piece of text for.
type Kind string

// Kinds of findings.
const (
	KindPrivateKey  Kind = "private_key"    // a PEM or PGP private key block
	KindOpenAI      Kind = "openai_key"     // sk-…, sk-proj-…
	KindAnthropic   Kind = "anthropic_key"  // sk-ant-…
	KindAWSKeyID    Kind = "aws_access_key" // AKIA…/ASIA… + 16
	KindAWSSecret   Kind = "aws_secret_key" // 40 characters after an AWS secret key name
	KindGitHub      Kind = "github_token"   // ghp_, gho_, ghu_, ghs_, ghr_, github_pat_
	KindSlack       Kind = "slack_token"    // xoxa-, xoxb-, xoxp-, xoxr-, xoxs-
	KindJWT         Kind = "jwt"            // header.payload.signature with an "alg" header
	KindGoogleAPI   Kind = "google_api_key" // AIza + 35
	KindStripe      Kind = "stripe_key"     // sk_live_, rk_live_ (and _test_), whsec_; never pk_
	KindCard        Kind = "card_number"    // 13–19 digits passing Luhn with a card prefix
	KindAssignment  Kind = "credential"     // the value of password=…, api_key: …, token=…
	KindBearer      Kind = "bearer_token"   // Authorization: Bearer …
	KindURLPassword Kind = "url_password"   // the password in scheme://user:password@host
	KindEntropy     Kind = "opaque_token"   // a high-entropy run, by the fallback
)

// Finding is a span of text the heuristic takes for a secret: s[Start:End].
type Finding struct {
	Kind       Kind
	Start, End int // byte offsets
}

// pattern is one credential pattern. When group is set, only that
// submatch is the secret (the name before it is context, not secret).
type pattern struct {
	kind  Kind
	re    *regexp.Regexp
	group int
	// bounded: the match must not sit inside a longer run of token
	// characters, which \b cannot express for tokens ending in '-'.
	bounded bool
	// mixed: the part after the prefix must hold upper case, lower case
	// and digits, which random keys always do and slugs like
	// "sk-button-primary-large" do not.
	mixed bool
	// ok, when set, vets a match further.
	ok func(m string) bool
	// need, when set, is a test that every text holding a match passes,
	// made without the expression: text that fails it is not searched.
	// The expressions that start with a class, not a literal, are tried
	// at every offset of the text, and the repeats after them make that
	// costly on long runs of letters and digits: a WebSocket frame of
	// 1 KiB took ~4 ms under the race detector, most of it in these five,
	// which a capture's redaction (package capture) runs twice on each of
	// up to 2,000 frames. Each need is a literal the expression itself
	// requires, so it changes no finding (need_test.go holds the two to
	// agreeing).
	need func(s string) bool
}

// needAny returns a need met by text holding any of lits.
func needAny(lits ...string) func(string) bool {
	return func(s string) bool {
		for _, l := range lits {
			if strings.Contains(s, l) {
				return true
			}
		}
		return false
	}
}

// needFold returns a need met by text holding lit (ASCII, lower case) in
// any case, with the case folding of the expressions' (?i): Unicode's
// simple folding, under which "ſ" is an "s" and "K" (Kelvin) a "k". Text
// of ASCII alone, or a lit none of whose letters folds out of ASCII, is
// compared byte by byte (an expression would cost as much as the one it
// spares); other text goes to an expression.
func needFold(lit string) func(string) bool {
	wide := false // some letter of lit folds to a rune outside ASCII
	for _, r := range lit {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			wide = wide || f >= utf8.RuneSelf
		}
	}
	re := regexp.MustCompile(`(?i)` + regexp.QuoteMeta(lit))
	return func(s string) bool {
		if wide && !isASCII(s) {
			return re.MatchString(s)
		}
		for i := 0; i+len(lit) <= len(s); i++ {
			j := 0
			for j < len(lit) && lowerASCII(s[i+j]) == lit[j] {
				j++
			}
			if j == len(lit) {
				return true
			}
		}
		return false
	}
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// patterns are compiled on first use, not at init: this package is linked
// into every waymark process, and most never redact anything.
var patterns = sync.OnceValue(func() []pattern {
	return []pattern{
		{kind: KindPrivateKey, re: regexp.MustCompile(`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----`)},
		// A block cut short (a truncated paste) is masked up to where its
		// base64 stops; '-' is left out so that a whole block's match stops at
		// its END line.
		{kind: KindPrivateKey, re: regexp.MustCompile(`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[A-Za-z0-9+/=\s]*`)},
		{kind: KindAnthropic, re: regexp.MustCompile(`sk-ant-[A-Za-z0-9_-]{20,}`), bounded: true, mixed: true},
		{kind: KindOpenAI, re: regexp.MustCompile(`sk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}`), bounded: true, mixed: true,
			ok: func(m string) bool { return !strings.HasPrefix(m, "sk-ant-") }},
		{kind: KindAWSKeyID, re: regexp.MustCompile(`(?:AKIA|ASIA)[A-Z0-9]{16}`), bounded: true},
		{kind: KindAWSSecret, re: regexp.MustCompile(`(?i)(?:aws)?_?secret_?(?:access)?_?key(?:_id)?["']?\s*[:=]\s*["']?([A-Za-z0-9/+]{40})`), group: 1, bounded: true,
			need: needFold("secret")},
		{kind: KindGitHub, re: regexp.MustCompile(`(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}`), bounded: true},
		{kind: KindGitHub, re: regexp.MustCompile(`github_pat_[A-Za-z0-9_]{22,255}`), bounded: true},
		{kind: KindSlack, re: regexp.MustCompile(`xox[abprs]-[A-Za-z0-9-]{10,}`), bounded: true},
		{kind: KindJWT, re: regexp.MustCompile(`e[wy][A-Za-z0-9_-]{6,}={0,2}\.[A-Za-z0-9_-]{4,}={0,2}\.[A-Za-z0-9_-]*`), bounded: true, ok: jwtHeader},
		{kind: KindGoogleAPI, re: regexp.MustCompile(`AIza[0-9A-Za-z_-]{35}`), bounded: true},
		{kind: KindStripe, re: regexp.MustCompile(`(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{10,247}|whsec_[0-9A-Za-z]{20,}`), bounded: true,
			need: needAny("_live_", "_test_", "whsec_")},
		{kind: KindBearer, re: regexp.MustCompile(`(?i)\bbearer\s+([A-Za-z0-9._~+/-]{16,}=*)`), group: 1, need: needFold("bearer")},
		{kind: KindURLPassword, re: regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^\s:/?#@]+:([^\s/?#@]+)@`), group: 1, need: needAny("://")},
		{kind: KindAssignment, re: regexp.MustCompile(`(?i)\b(?:api[_-]?key|apikey|access[_-]?token|auth[_-]?token|refresh[_-]?token|client[_-]?secret|secret[_-]?key|secret|password|passwd|pwd|token|private[_-]?key)["']?\s*[:=]\s*["']?([^\s"'&,;<>]{8,})`), group: 1,
			ok: notAWord, need: func(s string) bool { return strings.ContainsAny(s, ":=") }},
	}
})

// tokenChar reports whether c may be part of a key or token.
func tokenChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// Detect returns the spans of s that look like secrets, in order and not
// overlapping (overlapping findings are joined, keeping the first's kind).
func Detect(s string) []Finding { return detect(s, true) }

// detect is Detect; with needs false, every expression searches s (the
// test that the needs change no finding compares the two).
func detect(s string, needs bool) []Finding {
	var fs []Finding
	for _, p := range patterns() {
		if needs && p.need != nil && !p.need(s) {
			continue
		}
		for _, m := range p.re.FindAllStringSubmatchIndex(s, -1) {
			start, end := m[2*p.group], m[2*p.group+1]
			if start < 0 || !p.vet(s, start, end) {
				continue
			}
			fs = append(fs, Finding{p.kind, start, end})
		}
	}
	fs = append(fs, cards(s)...)
	fs = append(fs, opaque(s)...)
	return merge(fs)
}

func (p pattern) vet(s string, start, end int) bool {
	if p.bounded && (start > 0 && tokenChar(s[start-1]) || end < len(s) && tokenChar(s[end])) {
		return false
	}
	m := s[start:end]
	if p.mixed {
		body := m[strings.LastIndexByte(m[:min(len(m), 12)], '-')+1:]
		if !hasUpper(body) || !hasLower(body) || !hasDigit(body) {
			return false
		}
	}
	return p.ok == nil || p.ok(m)
}

// merge sorts findings and joins the ones that overlap or touch.
func merge(fs []Finding) []Finding {
	slices.SortFunc(fs, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(b.End, a.End))
	})
	out := fs[:0]
	for _, f := range fs {
		if n := len(out); n > 0 && f.Start <= out[n-1].End {
			out[n-1].End = max(out[n-1].End, f.End)
			continue
		}
		out = append(out, f)
	}
	return out
}

// LooksSecret reports whether the heuristic finds a secret anywhere in s.
func LooksSecret(s string) bool { return len(Detect(s)) > 0 }

// notAWord keeps "password: Tr0ub4dor&3" and drops "password: required":
// a credential-like name followed by a plain word is prose, not a secret.
func notAWord(m string) bool {
	for i := 0; i < len(m); i++ {
		if c := m[i]; !(c >= 'a' && c <= 'z') {
			return true
		}
	}
	return false
}

func hasUpper(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r >= 'A' && r <= 'Z' })
}
func hasLower(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r >= 'a' && r <= 'z' })
}
func hasDigit(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r >= '0' && r <= '9' })
}
