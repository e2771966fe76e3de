package capture

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// Hostile inputs: each tries to carry a secret past the Redactor into a
// capture file.

// leaks fails the test for every secret s still holds.
func leaks(t *testing.T, where, s string, secrets ...string) {
	t.Helper()
	for _, v := range secrets {
		if strings.Contains(s, v) {
			t.Errorf("%s keeps %q: %s", where, v, s)
		}
	}
}

// A Location, Referer or Content-Location header is a URL: its
// secret-named query and fragment parameters are markers, as in the
// exchange's own URL, whatever their shape.
func TestRedactorURLHeaders(t *testing.T) {
	r := NewRedactor([]byte("k"))
	// Letters only and short: no heuristic takes it for a key, so it is
	// replaced only where its name says it is a secret.
	const sess = "kxqzvbwmtrpl"
	for _, h := range []string{"Location", "Referer", "Content-Location"} {
		got := r.Header(h, "https://x.test/next?session="+sess+"&page=2#access_token="+sess)
		leaks(t, h, got, sess)
		if !strings.Contains(got, "page=2") {
			t.Errorf("%s lost its plain parameter: %s", h, got)
		}
	}
	// In a whole file: the redirect's next hop names it, the Location
	// header of the hop before must not keep it.
	f := &File{Format: Format, Exchanges: []Exchange{
		{ID: "e1", URL: "https://x.test/login", Status: 302, RedirectedTo: "https://x.test/next?session=" + sess,
			ResponseHeaders: []Header{{"Location", "/next?session=" + sess}}},
		{ID: "e1.1", URL: "https://x.test/next?session=" + sess},
		{ID: "e2", URL: "https://x.test/api", RequestHeaders: []Header{{"Referer", "https://x.test/next?session=" + sess}}},
	}}
	raw, _ := json.Marshal(NewRedactor(NewKey()).File(f))
	leaks(t, "file", string(raw), sess)
	if got := r.Header("Refresh", "0; url=/next?token=abcdefg"); strings.Contains(got, "abcdefg") {
		t.Errorf("Refresh keeps the token: %s", got)
	}
}

// Basic credentials are base64 of user:password: the password is a
// secret of its own, masked where the site echoes it.
func TestRedactorBasicAuthPassword(t *testing.T) {
	r := NewRedactor([]byte("k"))
	const pw = "swordfish-battery"
	basic := base64.StdEncoding.EncodeToString([]byte("ann:" + pw))
	if got := r.Header("Authorization", "Basic "+basic); strings.Contains(got, basic) {
		t.Fatalf("authorization: %s", got)
	}
	leaks(t, "an echo", r.Body("text/html", "<p>Hello ann, your password is "+pw+"</p>", false), pw)
}

// A cookie's value quoted, or URL-encoded, is the same secret when a
// page's script sends it unquoted or decoded.
func TestRedactorCookieSpellings(t *testing.T) {
	r := NewRedactor([]byte("k"))
	const raw, dec = "a8F3%2Fk2m9x1%3D%3D", "a8F3/k2m9x1=="
	got := r.Header("Set-Cookie", `sid="`+raw+`"; Path=/; Secure; HttpOnly; SameSite=Lax`+"\n"+`csrf=Qq9w8e7r6t5y; Max-Age=0`)
	leaks(t, "set-cookie", got, raw, dec, "Qq9w8e7r6t5y")
	leaks(t, "a header the page built from document.cookie", r.Header("X-Client-Context", dec), dec)
	leaks(t, "a JSON body", r.Body("text/plain", `session is `+dec+` now`, false), dec)
	leaks(t, "a quoted echo", r.Body("text/plain", `csrf="Qq9w8e7r6t5y"`, false), "Qq9w8e7r6t5y")
}

// A header named like a key (Azure's Ocp-Apim-Subscription-Key, a custom
// X-Client-Key) holds one, short or not.
func TestRedactorKeyHeaders(t *testing.T) {
	r := NewRedactor([]byte("k"))
	for _, h := range []string{"Ocp-Apim-Subscription-Key", "X-Client-Key", "x-functions-key", "X-Auth-Tkn", "Api_Key", "x-amz-security-token"} {
		if got := r.Header(h, "abc12def"); strings.Contains(got, "abc12def") {
			t.Errorf("%s: %s", h, got)
		}
	}
}

// A multipart/form-data body: a secret-named part is a marker, whatever
// its value looks like.
func TestRedactorMultipart(t *testing.T) {
	r := NewRedactor([]byte("k"))
	const b = "----WebKitFormBoundaryx7Yz"
	body := "--" + b + "\r\nContent-Disposition: form-data; name=\"user\"\r\n\r\nann\r\n" +
		"--" + b + "\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\ncorrect horse battery\r\n" +
		"--" + b + "\r\nContent-Disposition: form-data; name=\"api_key\"\r\n\r\nplainword\r\n" +
		"--" + b + "--\r\n"
	got := r.Body("multipart/form-data; boundary="+b, body, true)
	leaks(t, "multipart", got, "correct horse battery", "plainword")
	if !strings.Contains(got, "\r\n\r\nann\r\n") || !strings.HasSuffix(got, "--"+b+"--\r\n") {
		t.Errorf("multipart lost its plain parts: %q", got)
	}
}

// A text/plain form (a form with enctype="text/plain") is name=value
// lines: a secret-named one is a marker even when its value is a word.
func TestRedactorTextPlainForm(t *testing.T) {
	r := NewRedactor([]byte("k"))
	got := r.Body("text/plain", "user=ann\r\npassword=swordfish\r\n", true)
	leaks(t, "text/plain form", got, "swordfish")
	if !strings.Contains(got, "user=ann") {
		t.Errorf("plain field lost: %q", got)
	}
}

// A known value spelled as HTML or JavaScript would spell it.
func TestRedactorEscapedSpellings(t *testing.T) {
	r := NewRedactor([]byte("k"))
	const typed = `Hu<nt>&"er/2'`
	r.Secret("secret", typed)
	for _, s := range []string{
		`<input value="Hu&lt;nt&gt;&amp;&quot;er/2&#39;">`,           // Go's html.EscapeString
		`<input value="Hu&lt;nt&gt;&amp;&#34;er/2&#39;">`,            // html/template
		`<script>var pw = "Hu<nt>&\"er\/2'";</script>`,               // JSON.stringify, PHP's "\/"
		`<script>var pw = "Hu\u003cnt\u003e\u0026\"er/2'";</script>`, // Go's json
	} {
		got := r.Body("text/html", s, false)
		if !strings.Contains(got, MarkerPrefix) {
			t.Errorf("kept: %s", got)
		}
	}
}

// An event-stream message's event name is redacted like its data.
func TestRedactorEventName(t *testing.T) {
	const tok = "Zq8xW3pL0vN7kR2mT5yB9cF4"
	f := &File{Format: Format,
		Exchanges: []Exchange{{ID: "e1", URL: "https://x.test/events", RequestHeaders: []Header{{"Authorization", "Bearer " + tok}}}},
		Messages:  []Message{{Exchange: "e1", Direction: "received", Event: "for-" + tok, Data: "x"}}}
	raw, _ := json.Marshal(NewRedactor(NewKey()).File(f))
	leaks(t, "capture", string(raw), tok)
}

// A site that rotates a cookie on every response (load balancers do:
// AWSALB, analytics) makes thousands of values known; redacting a full capture must
// still take seconds, not hours.
func TestRedactorManyKnownValuesStaysFast(t *testing.T) {
	if raceOn {
		t.Skip("a measure of time: not under the race detector")
	}
	f := &File{Format: Format}
	body := strings.Repeat(`{"id":"p-1","name":"Tea and cake","price":"4.50"},`, 64<<10/52)
	body = "[" + body + `{"id":"last"}]`
	for i := 0; i < 2000; i++ {
		e := Exchange{ID: fmt.Sprint("e", i), URL: fmt.Sprintf("https://x.test/api/items?page=%d", i), MimeType: "application/json",
			ResponseHeaders: []Header{{"Set-Cookie", fmt.Sprintf("AWSALB=rot%08dXq7Lm2Zp; Path=/\nAWSALBCORS=cors%08dXq7Lm2Zp; Path=/\n"+
				"_ga=GA1.1.%08d.1700000000\n_gid=GA1.2.%08d.1700000001\nvisit=v%08dQw; Path=/", i, i, i, i, i)}}}
		if i < 150 {
			e.ResponseBody = body
		}
		f.Exchanges = append(f.Exchanges, e)
	}
	done := make(chan *File, 1)
	start := time.Now()
	go func() { done <- NewRedactor(NewKey()).File(f) }()
	select {
	case red := <-done:
		t.Logf("redacted 2000 exchanges, 10000 known values, %d MiB of bodies in %v", 150*len(body)>>20, time.Since(start))
		if strings.Contains(red.Exchanges[1999].ResponseHeaders[0].Value, "rot00001999") {
			t.Error("the last cookie was kept")
		}
	case <-time.After(60 * time.Second):
		t.Fatal("redacting took more than a minute")
	}
}

// A secret where a name goes: a JSON object keyed by a token, a
// storage key holding an API key (Firebase's
// "firebase:authUser:API_KEY:[DEFAULT]"), a script URL with a token.
func TestRedactorSecretsInNames(t *testing.T) {
	const tok = "Zq8xW3pL0vN7kR2mT5yB9cF4"
	const gkey = "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"
	f := &File{Format: Format,
		Exchanges: []Exchange{{ID: "e1", URL: "https://x.test/api", MimeType: "application/json",
			Initiator:      "https://x.test/app.js?token=shortie:1:2",
			RequestHeaders: []Header{{"Authorization", "Bearer " + tok}},
			ResponseBody:   `{"sessions":{"` + tok + `":{"user":"ann"}}}`}},
		State: []StateValue{{Source: "localStorage:firebase:authUser:" + gkey + ":[DEFAULT]", Value: `{"uid":"u1"}`}}}
	raw, _ := json.Marshal(NewRedactor(NewKey()).File(f))
	leaks(t, "capture", string(raw), tok, gkey, "shortie")
	if !strings.Contains(string(raw), `\"user\":\"ann\"`) && !strings.Contains(string(raw), `"user":"ann"`) {
		t.Errorf("the keyed object lost its content: %s", raw)
	}
}
