package capture

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"mime"
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/waymark-dev/waymark/secret"
)

// minKnown is the shortest secret value looked for inside other text once
// it is known (see tokenLike). A shorter one ("en", "1") is a marker where
// it was found by name (a cookie's value, a secret-named field) but is not
// replaced everywhere else, which would wreck ordinary text.
const minKnown = 6

// NewKey draws a key for one capture's markers. It is never saved: with
// it, a short secret's marker could be tested against guesses.
func NewKey() []byte {
	k := make([]byte, 32)
	_, _ = rand.Read(k)
	return k
}

// Redactor turns the secrets of one capture into markers ([Marker]) under
// the capture's key. A value found as a secret somewhere (an
// Authorization header, a cookie, a secret-named field, a JWT) or told by
// the driver (a value typed as a secret) becomes known, and is replaced
// wherever else it appears, in every form [secret.Set] knows (URL, JSON,
// HTML, hex, base64 at any alignment), by the same marker.
// [Redactor.File] reads the whole capture twice so that a value found
// late is replaced early too. A Redactor is safe for concurrent use.
type Redactor struct {
	key []byte
	// known are the secret values found or given, each under its marker:
	// the one known-value matcher (package secret) writes the markers.
	known secret.Set
	mu    sync.Mutex
	// kinds are the values known, by value, with the kind they were
	// first found as; guarded by mu.
	kinds map[string]string
}

// NewRedactor returns a redactor under key (see [NewKey]).
func NewRedactor(key []byte) *Redactor {
	return &Redactor{key: key, kinds: map[string]string{}}
}

// Secret makes value known as a secret of kind and returns its marker.
func (r *Redactor) Secret(kind, value string) string {
	if value == "" {
		return ""
	}
	if kind == "secret" && len(value) >= secret.MinKnown || tokenLike(value) {
		r.learn(kind, value)
	}
	return Marker(r.key, kind, value)
}

// learn makes value known, under the marker of the kind it was first
// found as.
func (r *Redactor) learn(kind, value string) {
	r.mu.Lock()
	if _, ok := r.kinds[value]; ok {
		r.mu.Unlock()
		return
	}
	r.kinds[value] = kind
	r.mu.Unlock()
	r.known.Add(Marker(r.key, kind, value), value)
}

// tokenLike reports whether a value found as a secret is looked for
// everywhere else too: long enough, and not a plain word ("english",
// "dark-mode" as a cookie's value would wreck every text they appear in).
func tokenLike(v string) bool {
	if len(v) < minKnown {
		return false
	}
	if len(v) >= 16 {
		return true
	}
	return strings.ContainsAny(v, "0123456789")
}

// replaceKnown replaces every form of the known values in s by its
// marker.
func (r *Redactor) replaceKnown(s string) string {
	return r.known.MaskWith(s, func(marker string) string { return marker })
}

// Text redacts free text: the known values, then what the heuristic of
// package secret takes for a secret (key shapes, JWTs, card numbers,
// "password=…"). With entropy false, a high-entropy run alone is kept
// (the ids and cursors of a response's data, which a reader needs).
func (r *Redactor) Text(s string, entropy bool) string {
	if s == "" {
		return s
	}
	s = r.replaceKnown(s)
	finds := secret.Detect(s)
	if len(finds) == 0 {
		return s
	}
	marks := markerSpans(s)
	var b strings.Builder
	last := 0
	for _, f := range finds {
		if f.Start < last || overlaps(marks, f.Start, f.End) || (!entropy && f.Kind == secret.KindEntropy) {
			continue
		}
		b.WriteString(s[last:f.Start])
		b.WriteString(r.Secret(findingKind(f.Kind), s[f.Start:f.End]))
		last = f.End
	}
	b.WriteString(s[last:])
	return b.String()
}

// findingKind names a marker for a finding of package secret.
func findingKind(k secret.Kind) string {
	switch k {
	case secret.KindJWT:
		return "jwt"
	case secret.KindCard:
		return "card"
	case secret.KindBearer:
		return "authorization"
	case secret.KindEntropy:
		return "key"
	case secret.KindAssignment, secret.KindURLPassword:
		return "secret"
	}
	return "key"
}

var markerRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(regexp.QuoteMeta(MarkerPrefix) + `[a-z_-]+:[0-9a-f]{12}»`)
})

func markerSpans(s string) [][]int { return markerRE().FindAllStringIndex(s, -1) }

func overlaps(spans [][]int, start, end int) bool {
	for _, m := range spans {
		if start < m[1] && m[0] < end {
			return true
		}
	}
	return false
}

// Header redacts one header's value.
func (r *Redactor) Header(name, value string) string {
	switch n := strings.ToLower(name); {
	case n == "authorization" || n == "proxy-authorization":
		if scheme, rest, ok := strings.Cut(value, " "); ok && rest != "" {
			rest = strings.TrimSpace(rest)
			if strings.EqualFold(scheme, "basic") {
				// base64 of user:password: the password is a secret of
				// its own wherever the site echoes it.
				if b, err := base64.StdEncoding.DecodeString(rest); err == nil {
					if _, pw, ok := strings.Cut(string(b), ":"); ok {
						r.Secret("secret", pw)
					}
				}
			}
			return scheme + " " + r.Secret("authorization", rest)
		}
		return r.Secret("authorization", value)
	case n == "location" || n == "content-location" || n == "referer":
		return r.URL(value) // secret-named parameters, as in the exchange's URL
	case n == "refresh":
		if i := strings.Index(strings.ToLower(value), "url="); i >= 0 {
			return r.Text(value[:i+4], true) + r.URL(value[i+4:])
		}
	case n == "cookie":
		return r.cookies(value, "; ")
	case n == "set-cookie":
		lines := strings.Split(value, "\n")
		for i, l := range lines {
			pair, attrs, _ := strings.Cut(l, ";")
			lines[i] = r.cookies(pair, "")
			if attrs != "" {
				lines[i] += ";" + attrs
			}
		}
		return strings.Join(lines, "\n")
	case secret.Name(n) || strings.HasSuffix(n, "key"):
		// A header named …-Key holds one (Ocp-Apim-Subscription-Key,
		// X-Client-Key); the nonces so named lose nothing as markers.
		return r.Secret("token", value)
	}
	return r.Text(value, true)
}

// cookies redacts the values of "a=1; b=2", keeping the names.
func (r *Redactor) cookies(s, sep string) string {
	parts := []string{s}
	if sep != "" {
		parts = strings.Split(s, ";")
	}
	for i, p := range parts {
		name, v, ok := strings.Cut(p, "=")
		if !ok {
			continue
		}
		if v != "" {
			// A script reading document.cookie may send the value
			// unquoted or decoded: those are known too.
			if u := strings.Trim(v, `"`); u != v && u != "" {
				r.Secret("cookie", u)
			}
			if d, err := url.QueryUnescape(strings.Trim(v, `"`)); err == nil && d != strings.Trim(v, `"`) {
				r.Secret("cookie", d)
			}
			v = r.Secret("cookie", v)
		}
		parts[i] = name + "=" + v
	}
	return strings.Join(parts, ";")
}

// URL redacts a URL: secret-named query parameters become markers; the
// rest is redacted as text.
func (r *Redactor) URL(u string) string {
	base, frag, hasFrag := strings.Cut(u, "#")
	path, query, hasQuery := strings.Cut(base, "?")
	out := r.Text(path, true)
	if hasQuery {
		out += "?" + r.Form(query)
	}
	if hasFrag {
		if strings.Contains(frag, "=") {
			out += "#" + r.Form(frag)
		} else {
			out += "#" + r.Text(frag, true)
		}
	}
	return out
}

// Form redacts "a=1&b=2": a query or a form body.
func (r *Redactor) Form(q string) string {
	parts := strings.Split(q, "&")
	for i, p := range parts {
		k, v, ok := strings.Cut(p, "=")
		if !ok {
			parts[i] = r.Text(p, true)
			continue
		}
		name, err := url.QueryUnescape(k)
		if err != nil {
			name = k
		}
		if secret.Name(name) && v != "" {
			val, err := url.QueryUnescape(v)
			if err != nil {
				val = v
			}
			parts[i] = k + "=" + url.QueryEscape(r.Secret("token", val))
			continue
		}
		parts[i] = k + "=" + r.Text(v, true)
	}
	return strings.Join(parts, "&")
}

// Body redacts a request or response body by its MIME type: JSON field by
// field (secret-named fields become markers), a form like a query, and
// anything else as text. entropy is Text's.
func (r *Redactor) Body(mime, body string, entropy bool) string {
	if body == "" {
		return body
	}
	m := strings.ToLower(mime)
	t := strings.TrimSpace(body)
	if strings.Contains(m, "json") || (m == "" || strings.HasPrefix(m, "text/plain")) && (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) {
		if out, ok := r.JSON(body, entropy); ok {
			return out
		}
	}
	switch {
	case strings.Contains(m, "x-www-form-urlencoded"):
		return r.Form(body)
	case strings.HasPrefix(m, "multipart/form-data"):
		if out, ok := r.multipart(mime, body, entropy); ok {
			return out
		}
	case strings.HasPrefix(m, "text/plain") && strings.Contains(body, "="):
		return r.plainForm(body, entropy)
	}
	return r.Text(body, entropy)
}

// multipart redacts a multipart/form-data body part by part: a
// secret-named part's content is a marker. false when the body is not
// multipart under mime's boundary.
func (r *Redactor) multipart(mimeType, body string, entropy bool) (string, bool) {
	_, params, err := mime.ParseMediaType(mimeType)
	if err != nil || params["boundary"] == "" {
		return "", false
	}
	delim := "--" + params["boundary"]
	parts := strings.Split(body, delim)
	if len(parts) < 2 {
		return "", false
	}
	for i := 1; i < len(parts); i++ {
		p := parts[i]
		head, content, ok := strings.Cut(p, "\r\n\r\n")
		if !ok {
			continue // the closing "--\r\n"
		}
		tail := ""
		if c, ok := strings.CutSuffix(content, "\r\n"); ok {
			content, tail = c, "\r\n"
		}
		name := ""
		if _, ps, err := mime.ParseMediaType(headerLine(head, "content-disposition")); err == nil {
			name = ps["name"]
		}
		if secret.Name(name) && content != "" {
			content = r.Secret("token", content)
		} else {
			content = r.Text(content, entropy)
		}
		parts[i] = head + "\r\n\r\n" + content + tail
	}
	return strings.Join(parts, delim), true
}

// headerLine returns the line of a MIME part's head that names header
// (case-insensitive), or "".
func headerLine(head, header string) string {
	for _, l := range strings.Split(head, "\r\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.EqualFold(strings.TrimSpace(k), header) {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// plainForm redacts a text/plain body line by line: a line
// "name=value" with a secret name (a form sent with
// enctype="text/plain") has its value as a marker.
func (r *Redactor) plainForm(body string, entropy bool) string {
	lines := strings.SplitAfter(body, "\n")
	for i, l := range lines {
		text := strings.TrimRight(l, "\r\n")
		k, v, ok := strings.Cut(text, "=")
		if ok && v != "" && !strings.ContainsAny(k, " \t") && secret.Name(k) {
			lines[i] = k + "=" + r.Secret("token", v) + l[len(text):]
			continue
		}
		lines[i] = r.Text(text, entropy) + l[len(text):]
	}
	return strings.Join(lines, "")
}

// JSON redacts a JSON document field by field; false when s is not JSON.
// Object keys come out sorted.
func (r *Redactor) JSON(s string, entropy bool) (string, bool) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return "", false
	}
	v = r.walk(v, "", entropy)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", false
	}
	return strings.TrimSuffix(b.String(), "\n"), true
}

func (r *Redactor) walk(v any, name string, entropy bool) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			// A key may be a secret itself (an object keyed by session
			// token): named by its raw text, written redacted.
			out[r.Text(k, entropy)] = r.walk(x, k, entropy)
		}
		return out
	case []any:
		for i, x := range v {
			v[i] = r.walk(x, name, entropy)
		}
		return v
	case string:
		if name != "" && secret.Name(name) && v != "" {
			return r.Secret("token", v)
		}
		return r.Text(v, entropy)
	case json.Number:
		if name != "" && secret.Name(name) {
			return r.Secret("token", v.String())
		}
		if out := r.Text(v.String(), entropy); out != v.String() {
			return out // a card number sent as a number
		}
		return v
	}
	return v
}

// State redacts a value a page held, by where it was read ("cookie:sid",
// "localStorage:token", "meta:csrf-token", "script:__NEXT_DATA__").
func (r *Redactor) State(source, value string) string {
	where, name, _ := strings.Cut(source, ":")
	switch {
	case where == "cookie":
		return r.Secret("cookie", value)
	case secret.Name(name):
		return r.Secret("token", value)
	}
	if out, ok := r.JSON(value, true); ok {
		return out
	}
	return r.Text(value, true)
}

// File returns f redacted: every URL, header, body, frame and state value.
// It reads f twice, the first time only to learn the secrets, so that a
// value found anywhere is replaced everywhere. f is not changed.
func (r *Redactor) File(f *File) *File {
	r.redactFile(f)
	return r.redactFile(f)
}

func (r *Redactor) redactFile(f *File) *File {
	out := *f
	// Headers first: they name the secrets the bodies and URLs repeat.
	out.Exchanges = r.exchangeHeaders(f.Exchanges)
	out.Cached = r.exchangeHeaders(f.Cached)
	out.State = make([]StateValue, len(f.State))
	for i, s := range f.State {
		s.Value = r.State(s.Source, s.Value)
		s.Source = r.Text(s.Source, true) // a key may hold one (Firebase's holds its API key)
		s.Page = r.URL(s.Page)
		out.State[i] = s
	}
	r.exchangeBodies(out.Exchanges, f.Exchanges)
	r.exchangeBodies(out.Cached, f.Cached)
	out.Messages = make([]Message, len(f.Messages))
	for i, m := range f.Messages {
		m.Data = r.Body("", m.Data, true)
		m.Event = r.Text(m.Event, true)
		out.Messages[i] = m
	}
	return &out
}

// exchangeHeaders copies exchanges with their headers redacted.
func (r *Redactor) exchangeHeaders(xs []Exchange) []Exchange {
	if xs == nil {
		return nil
	}
	out := make([]Exchange, len(xs))
	for i, e := range xs {
		e.RequestHeaders = r.headers(e.RequestHeaders)
		e.ResponseHeaders = r.headers(e.ResponseHeaders)
		out[i] = e
	}
	return out
}

// exchangeBodies redacts the URLs and bodies of out, whose headers are
// redacted already; orig are the same exchanges as captured.
func (r *Redactor) exchangeBodies(out, orig []Exchange) {
	for i := range out {
		e := &out[i]
		e.URL, e.Page, e.Frame, e.RedirectedTo = r.URL(e.URL), r.URL(e.Page), r.URL(e.Frame), r.URL(e.RedirectedTo)
		e.Initiator = r.Text(e.Initiator, true)
		// The body's type as sent: a multipart boundary is a marker in
		// the redacted header.
		e.RequestBody = r.Body(headerValue(orig[i].RequestHeaders, "content-type"), e.RequestBody, true)
		e.ResponseBody = r.Body(e.MimeType, e.ResponseBody, false)
		e.Failed = r.Text(e.Failed, true)
	}
}

func (r *Redactor) headers(hs []Header) []Header {
	if hs == nil {
		return nil
	}
	out := make([]Header, len(hs))
	for i, h := range hs {
		out[i] = Header{h.Name, r.Header(h.Name, h.Value)}
	}
	return out
}

func headerValue(hs []Header, name string) string {
	for _, h := range hs {
		if strings.EqualFold(h.Name, name) {
			return h.Value
		}
	}
	return ""
}
