package demo

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// fixedNow is the clock of every test site: 2030-06-15 12:00 UTC.
var fixedNow = time.Date(2030, 6, 15, 12, 0, 0, 0, time.UTC)

// browser is an HTTP client with a cookie jar that does not follow
// redirects, so tests see each 303.
type browser struct {
	t    *testing.T
	c    *http.Client
	base string
}

func newSite(t *testing.T) (*Site, *browser) {
	t.Helper()
	site := New(&Options{Now: func() time.Time { return fixedNow }})
	srv := httptest.NewServer(site)
	t.Cleanup(srv.Close)
	return site, newBrowser(t, srv.URL)
}

func newBrowser(t *testing.T, base string) *browser {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &http.Client{
		Jar:           jar,
		Timeout:       20 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return &browser{t: t, c: c, base: base}
}

// reply is a read response.
type reply struct {
	Status   int
	Header   http.Header
	Body     string
	Location string
}

func (b *browser) do(req *http.Request) reply {
	b.t.Helper()
	res, err := b.c.Do(req)
	if err != nil {
		b.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		b.t.Fatalf("%s %s: read body: %v", req.Method, req.URL, err)
	}
	return reply{Status: res.StatusCode, Header: res.Header, Body: string(body), Location: res.Header.Get("Location")}
}

func (b *browser) get(path string) reply {
	b.t.Helper()
	req, err := http.NewRequest("GET", b.base+path, nil)
	if err != nil {
		b.t.Fatal(err)
	}
	return b.do(req)
}

func (b *browser) postForm(path string, v url.Values) reply {
	b.t.Helper()
	return b.post(path, "application/x-www-form-urlencoded", strings.NewReader(v.Encode()))
}

func (b *browser) post(path, contentType string, body io.Reader) reply {
	b.t.Helper()
	req, err := http.NewRequest("POST", b.base+path, body)
	if err != nil {
		b.t.Fatal(err)
	}
	req.Header.Set("Content-Type", contentType)
	return b.do(req)
}

// sid returns the browser's demo_sid cookie.
func (b *browser) sid() string {
	b.t.Helper()
	u, _ := url.Parse(b.base)
	for _, c := range b.c.Jar.Cookies(u) {
		if c.Name == CookieName {
			return c.Value
		}
	}
	b.t.Fatalf("no %s cookie", CookieName)
	return ""
}

// file is one file part of a multipart form.
type file struct {
	Field, Name, Content string
}

// multipartBody encodes fields (repeated keys allowed) and files.
func multipartBody(t *testing.T, fields url.Values, files ...file) (string, io.Reader) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, vs := range fields {
		for _, v := range vs {
			if err := mw.WriteField(k, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, f := range files {
		w, err := mw.CreateFormFile(f.Field, f.Name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(w, f.Content); err != nil {
			t.Fatal(err)
		}
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return mw.FormDataContentType(), &buf
}

func wantStatus(t *testing.T, r reply, want int) {
	t.Helper()
	if r.Status != want {
		t.Fatalf("status = %d, want %d; body:\n%s", r.Status, want, r.Body)
	}
}

func wantContains(t *testing.T, body string, subs ...string) {
	t.Helper()
	for _, s := range subs {
		if !strings.Contains(body, s) {
			t.Errorf("body does not contain %q", s)
		}
	}
}
