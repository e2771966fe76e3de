package capture

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

func hashOf(t *testing.T, s string) string {
	t.Helper()
	i := strings.Index(s, MarkerPrefix)
	if i < 0 {
		t.Fatalf("no marker in %q", s)
	}
	j := strings.Index(s[i:], "»")
	h, ok := MarkerHash(s[i : i+j+len("»")])
	if !ok {
		t.Fatalf("bad marker in %q", s)
	}
	return h
}

func TestRedactorHeaders(t *testing.T) {
	r := NewRedactor([]byte("k"))
	const tok = "abcDEF123456ghiJKL"
	auth := r.Header("Authorization", "Bearer "+tok)
	if !strings.HasPrefix(auth, "Bearer "+MarkerPrefix+"authorization:") {
		t.Errorf("authorization: %q", auth)
	}
	ck := r.Header("Cookie", "sid=s3ss10nValue; theme=dark")
	if strings.Contains(ck, "s3ss10nValue") || strings.Contains(ck, "dark") || !strings.HasPrefix(ck, "sid=«") || !strings.Contains(ck, "; theme=«") {
		t.Errorf("cookie: %q", ck)
	}
	sc := r.Header("Set-Cookie", "sid=s3ss10nValue; Path=/; HttpOnly\nlang=en; Path=/")
	if strings.Contains(sc, "s3ss10nValue") || !strings.Contains(sc, "; Path=/; HttpOnly\nlang=«") {
		t.Errorf("set-cookie: %q", sc)
	}
	for _, h := range []string{"X-CSRF-Token", "X-Api-Key", "X-XSRF-TOKEN", "Proxy-Authorization"} {
		if got := r.Header(h, "v4lue-of-some-length"); !strings.HasPrefix(got, MarkerPrefix) && !strings.Contains(got, MarkerPrefix) {
			t.Errorf("%s kept its value: %q", h, got)
		}
	}
	if got := r.Header("Content-Type", "application/json"); got != "application/json" {
		t.Errorf("content-type: %q", got)
	}
	// The token is known now: found inside a URL and a body too, with the
	// same hash.
	u := r.URL("https://x.test/a/" + tok + "/b?q=" + url.QueryEscape(tok))
	if strings.Contains(u, tok) || hashOf(t, u) != hashOf(t, auth) {
		t.Errorf("url: %q", u)
	}
	b := r.Body("text/plain", "token is "+base64.StdEncoding.EncodeToString([]byte(tok)), true)
	if strings.Contains(b, base64.StdEncoding.EncodeToString([]byte(tok))) {
		t.Errorf("base64 form kept: %q", b)
	}
}

func TestRedactorBodies(t *testing.T) {
	r := NewRedactor([]byte("k"))
	jwt := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`)) + "." +
		base64.RawURLEncoding.EncodeToString([]byte(`{"sub":"a"}`)) + ".c2lnbmF0dXJlLXNpZ25hdHVyZQ"
	in := `{"user":{"name":"Ann","author":"Bo","password":"pw-9f8e7d6c"},"token":12345678,"items":[{"id":"p-1","note":"card 4242 4242 4242 4242"}],"jwt_here":"x ` + jwt + `"}`
	out := r.Body("application/json", in, false)
	for _, leak := range []string{"pw-9f8e7d6c", "12345678", "4242 4242 4242 4242", jwt} {
		if strings.Contains(out, leak) {
			t.Errorf("kept %q: %s", leak, out)
		}
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("not JSON any more: %v\n%s", err, out)
	}
	if u := v["user"].(map[string]any); u["name"] != "Ann" || u["author"] != "Bo" {
		t.Errorf("plain fields changed: %s", out)
	}
	form := r.Body("application/x-www-form-urlencoded", "user=ann&password=hunter2hunter2&csrf_token=abcdefgh12", true)
	if strings.Contains(form, "hunter2hunter2") || strings.Contains(form, "abcdefgh12") || !strings.HasPrefix(form, "user=ann&password=") {
		t.Errorf("form: %s", form)
	}
	// A value found in one place is replaced inside larger strings
	// elsewhere, JSON-escaped too.
	r.Secret("secret", `pa"ss-wörd`)
	if got := r.Text(`{"note":"pa\"ss-wörd"}`, true); strings.Contains(got, `pa\"ss`) {
		t.Errorf("JSON-escaped form kept: %s", got)
	}
}

func TestRedactorFileSameHashEverywhere(t *testing.T) {
	const tok = "Zq8xW3pL0vN7kR2mT5yB9cF4"
	f := &File{Format: Format,
		// The body that repeats the token comes first; the header that
		// says it is a secret, later: the file is read twice.
		Exchanges: []Exchange{
			{ID: "e1", URL: "https://x.test/echo", ResponseBody: `{"seen":"` + tok + `"}`, MimeType: "application/json"},
			{ID: "e2", URL: "https://x.test/api", RequestHeaders: []Header{{"Authorization", "Bearer " + tok}}},
		},
		State: []StateValue{{Source: "localStorage:token", Value: tok}, {Source: "localStorage:prefs", Value: `{"auth":{"t":"` + tok + `"},"lang":"en"}`}},
	}
	red := NewRedactor(NewKey()).File(f)
	raw, _ := json.Marshal(red)
	if strings.Contains(string(raw), tok) {
		t.Fatalf("token kept: %s", raw)
	}
	h := hashOf(t, red.Exchanges[1].RequestHeaders[0].Value)
	for _, s := range []string{red.Exchanges[0].ResponseBody, red.State[0].Value, red.State[1].Value} {
		if hashOf(t, s) != h {
			t.Errorf("%q has another hash than the header's %s", s, h)
		}
	}
	if f.Exchanges[1].RequestHeaders[0].Value != "Bearer "+tok {
		t.Error("File changed its argument")
	}
}

func TestHARRequiredFields(t *testing.T) {
	f := &File{Format: Format, Dropped: 2, Exchanges: []Exchange{
		{ID: "e1", Kind: "document", Method: "GET", URL: "https://x.test/?q=1", Status: 302, RedirectedTo: "https://x.test/home"},
		{ID: "e1.1", Kind: "document", Method: "GET", URL: "https://x.test/home", Status: 200, MimeType: "text/html", ResponseBody: "<p>hi</p>",
			RequestHeaders: []Header{{"Cookie", "a=1; b=2"}}, ResponseHeaders: []Header{{"Set-Cookie", "c=3; Path=/\nd=4"}}},
		{ID: "e2", Kind: "fetch", Method: "POST", URL: "https://x.test/api", Page: "https://x.test/home", RequestBody: `{"a":1}`,
			RequestHeaders: []Header{{"Content-Type", "application/json"}}, Failed: "net::ERR_FAILED"},
	}}
	raw, err := json.Marshal(ToHAR(f, "1.0"))
	if err != nil {
		t.Fatal(err)
	}
	var h struct {
		Log struct {
			Version string
			Creator struct{ Name, Version string }
			Pages   []map[string]any
			Entries []map[string]any
		}
	}
	if err := json.Unmarshal(raw, &h); err != nil {
		t.Fatal(err)
	}
	if h.Log.Version != "1.2" || h.Log.Creator.Name != "waymark" || len(h.Log.Entries) != 3 || len(h.Log.Pages) == 0 {
		t.Fatalf("log: %s", raw)
	}
	for _, p := range h.Log.Pages {
		requireKeys(t, "page", p, "startedDateTime", "id", "title", "pageTimings")
	}
	for _, e := range h.Log.Entries {
		requireKeys(t, "entry", e, "startedDateTime", "time", "request", "response", "cache", "timings")
		requireKeys(t, "request", e["request"].(map[string]any), "method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize", "bodySize")
		resp := e["response"].(map[string]any)
		requireKeys(t, "response", resp, "status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL", "headersSize", "bodySize")
		requireKeys(t, "content", resp["content"].(map[string]any), "size", "mimeType")
		requireKeys(t, "timings", e["timings"].(map[string]any), "send", "wait", "receive")
	}
	e1 := h.Log.Entries[1]
	if n := len(e1["request"].(map[string]any)["cookies"].([]any)); n != 2 {
		t.Errorf("request cookies: %d", n)
	}
	if n := len(e1["response"].(map[string]any)["cookies"].([]any)); n != 2 {
		t.Errorf("response cookies: %d", n)
	}
	if q := h.Log.Entries[0]["request"].(map[string]any)["queryString"].([]any); len(q) != 1 {
		t.Errorf("query: %v", q)
	}
	if r := h.Log.Entries[0]["response"].(map[string]any)["redirectURL"]; r != "https://x.test/home" {
		t.Errorf("redirectURL %v", r)
	}
	if pd, ok := h.Log.Entries[2]["request"].(map[string]any)["postData"].(map[string]any); !ok || pd["mimeType"] != "application/json" || pd["text"] != `{"a":1}` {
		t.Errorf("postData %v", pd)
	}
}

func requireKeys(t *testing.T, where string, m map[string]any, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			t.Errorf("HAR %s lacks %q", where, k)
		}
	}
}

// A plain word found as a cookie's value is a marker there, and stays
// readable elsewhere; a token-like one is replaced everywhere.
func TestRedactorPlainCookieValues(t *testing.T) {
	r := NewRedactor([]byte("k"))
	ck := r.Header("Cookie", "lang=english; sid=a8f3k2m9x1")
	if strings.Contains(ck, "english") || strings.Contains(ck, "a8f3k2m9x1") {
		t.Errorf("cookie: %q", ck)
	}
	if got := r.Text("in english, sid a8f3k2m9x1", true); !strings.Contains(got, "in english") || strings.Contains(got, "a8f3k2m9x1") {
		t.Errorf("text: %q", got)
	}
}

func TestWriteAndReadFile(t *testing.T) {
	p := t.TempDir() + "/c.json"
	data, _ := json.Marshal(&File{Format: Format, Exchanges: []Exchange{{ID: "e1", URL: "https://x.test/"}}})
	if err := WriteFile(p, data); err != nil {
		t.Fatal(err)
	}
	f, err := ReadFile(p)
	if err != nil || len(f.Exchanges) != 1 {
		t.Fatalf("%+v %v", f, err)
	}
	if _, err := Parse([]byte(`{"format":"waymark.routine/1"}`)); err == nil || !strings.Contains(err.Error(), "waymark.routine/1") {
		t.Errorf("another format: %v", err)
	}
	if err := WriteFile(t.TempDir()+"/no/such/c.json", data); err == nil {
		t.Error("wrote into a missing folder")
	}
}
