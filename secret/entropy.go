package secret

import (
	"math"
	"strings"
)

// minOpaque is the shortest run the entropy fallback looks at: shorter
// random strings (coupon codes, short ids) carry too little to tell apart
// from words.
const minOpaque = 20

// opaqueChar reports whether c may be part of an opaque token: base64 and
// base64url characters.
func opaqueChar(c byte) bool { return tokenChar(c) || c == '+' || c == '/' || c == '=' }

// opaque is the entropy fallback. It finds runs of base64(url) characters
// and keeps those that look random rather than made of words or hex.
func opaque(s string) []Finding {
	var fs []Finding
	for i := 0; i < len(s); {
		if !opaqueChar(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && opaqueChar(s[j]) {
			j++
		}
		if j-i >= minOpaque && !strings.HasSuffix(s[:i], "base64,") {
			fs = append(fs, opaqueRun(s, i, j)...)
		}
		i = j
	}
	return fs
}

// opaqueRun judges one run s[start:end]. A '=' inside a run separates a
// name from its value ("sid=Zx8…"), so each side is judged on its own. A
// run with '/' is a path when any segment is a word: then each segment is
// judged on its own, so "/user/<token>/profile" masks only the token,
// while base64 with slashes is judged whole.
func opaqueRun(s string, start, end int) []Finding {
	run := s[start:end]
	if k := strings.IndexByte(strings.TrimRight(run, "="), '='); k >= 0 {
		return append(opaqueRun(s, start, start+k), opaqueRun(s, start+k+1, end)...)
	}
	if strings.HasPrefix(run, "pk_live_") || strings.HasPrefix(run, "pk_test_") {
		return nil // Stripe publishable keys are meant to be public
	}
	if strings.Contains(run, "/") && hasWordSegment(run) {
		var fs []Finding
		for off := 0; off < len(run); {
			k := strings.IndexByte(run[off:], '/')
			if k < 0 {
				k = len(run) - off
			}
			if k >= minOpaque && isOpaque(run[off:off+k]) {
				fs = append(fs, Finding{KindEntropy, start + off, start + off + k})
			}
			off += k + 1
		}
		return fs
	}
	if isOpaque(run) {
		return []Finding{{KindEntropy, start, end}}
	}
	return nil
}

// isOpaque reports whether a token looks random enough to be a secret.
func isOpaque(t string) bool {
	t = strings.TrimRight(strings.Trim(t, "/-_+"), "=")
	if len(t) < minOpaque {
		return false
	}
	// Hex (git SHAs, hashes, trace ids) and UUIDs are identifiers.
	if strings.Trim(t, "0123456789abcdefABCDEF-") == "" {
		return false
	}
	// A mix of classes: random keys hold letters and digits; words,
	// camelCase names and kebab-case slugs hold no digits, and counters
	// no letters.
	if !hasDigit(t) || !(hasUpper(t) || hasLower(t)) || wordy(t) {
		return false
	}
	return entropy(t) >= threshold(len(t))
}

// threshold is the entropy, in bits a character, a run of n characters
// must reach. It is 4.0, less for runs under 24 characters, whose
// entropy cannot reach much higher: 20 random base62 characters score
// about 4.0 on average, and at most log2(20) ≈ 4.32.
func threshold(n int) float64 { return min(4.0, math.Log2(float64(n))-0.5) }

// entropy is the Shannon entropy of s in bits a byte.
func entropy(s string) float64 {
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	h, n := 0.0, float64(len(s))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// wordy reports whether t is made of words and numbers joined by
// separators or case changes ("order-2024-summary", "Version2Release"):
// such a run carries little surprise per character even when long.
//
// A name joined by separators is wordy too when most of its segments are
// words and the others are short ("test-3f2a1b-shop-smoke-03-sign-in-
// with-a-saved-card": a run id among words, as in waymark test's session
// names): a token split by dashes has long or unreadable segments.
func wordy(t string) bool {
	segs := strings.FieldsFunc(t, func(r rune) bool { return r == '-' || r == '_' || r == '+' || r == '/' })
	all, words := true, 0
	for _, seg := range segs {
		if wordySegment(seg) {
			if len(seg) >= 3 && strings.Trim(seg, "0123456789") != "" {
				words++
			}
			continue
		}
		all = false
		if len(seg) > maxIDSegment {
			return false
		}
	}
	return all || len(segs) >= 3 && 2*words >= len(segs)
}

// maxIDSegment is the longest segment that a name of words may hold
// unread: a short id or code (a run id, a commit's short hash).
const maxIDSegment = 8

// wordySegment reports whether seg is made of words and numbers.
func wordySegment(seg string) bool {
	for _, w := range splitCase(seg) {
		if !isWord(w) && strings.Trim(w, "0123456789") != "" {
			return false
		}
	}
	return true
}

// splitCase splits camelCase and letter-digit changes: "getV2Token" →
// "get", "V", "2", "Token".
func splitCase(s string) []string {
	var out []string
	last := 0
	for i := 1; i < len(s); i++ {
		a, b := s[i-1], s[i]
		lower := b >= 'A' && b <= 'Z' && a >= 'a' && a <= 'z'
		digit := (a >= '0' && a <= '9') != (b >= '0' && b <= '9')
		if lower || digit {
			out = append(out, s[last:i])
			last = i
		}
	}
	return append(out, s[last:])
}

// isWord reports whether w reads as a word: a lone capital (from a
// camelCase split), or letters in one case or capitalised, with a vowel,
// two letters at least (two only in lower case). Random base62 splits into
// pieces that fail this almost always, so a token counts as wordy only when
// every piece passes.
func isWord(w string) bool {
	switch {
	case len(w) == 1:
		return w[0] >= 'A' && w[0] <= 'Z'
	case len(w) == 2 && !isLowerWord(w):
		return false
	}
	if !isLowerWord(w) && !isUpperWord(w) && !(isUpperWord(w[:1]) && isLowerWord(w[1:])) {
		return false
	}
	return strings.ContainsAny(strings.ToLower(w), "aeiouy")
}

func isLowerWord(s string) bool { return strings.Trim(s, "abcdefghijklmnopqrstuvwxyz") == "" }
func isUpperWord(s string) bool { return strings.Trim(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == "" }

// hasWordSegment reports whether a slashed run has a path segment that is
// a lower-case word of three or more letters, as paths do and base64
// rarely does.
func hasWordSegment(run string) bool {
	for _, seg := range strings.Split(run, "/") {
		for _, part := range strings.FieldsFunc(seg, func(r rune) bool { return r == '-' || r == '_' }) {
			if len(part) >= 3 && isLowerWord(part) && strings.ContainsAny(part, "aeiouy") {
				return true
			}
		}
	}
	return false
}
