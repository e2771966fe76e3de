package demo

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestPages loads each page and checks the markup a browser test relies on.
func TestPages(t *testing.T) {
	tests := []struct {
		path string
		want []string
	}{
		{"/", []string{"<h1>Waymark demo shop</h1>", `href="/embed"`, `href="/big"`, `href="/keys"`, "<footer"}},
		{"/login", []string{`<label for="email">Email</label>`, `type="password"`, ">Sign in</button>"}},
		{"/widgets", []string{"<demo-counter", "/static/widgets.js", "Increment (light DOM)"}},
		{"/modal", []string{"Open dialog", "<dialog", ">Confirm</button>", ">Cancel</button>"}},
		{"/modal/overlay", []string{`id="buy-now"`, `id="overlay"`, `data-delay="500"`}},
		{"/modal/overlay?delay=0", []string{`data-delay="0"`}},
		{"/slow-page", []string{"Load data", "/static/slow.js"}},
		{"/links", []string{`target="_blank"`, `href="/links/target?from=same-tab"`}},
		{"/links/target", []string{"You followed a link"}},
		{"/alert", []string{"Show alert", "Show confirm", "Show prompt"}},
		{"/scroll", []string{"Far button", `class="spacer"`}},
		{"/drag", []string{`draggable="true"`, `type="range"`}},
		{"/upload", []string{`type="file"`, "multiple", `id="chosen"`}},
		{"/hover", []string{"Account menu", "Settings"}},
		{"/keys", []string{`id="key-input"`, `id="key-log"`}},
		{"/storage", []string{"Save to localStorage", "Save to sessionStorage"}},
	}
	_, b := newSite(t)
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			r := b.get(tt.path)
			wantStatus(t, r, http.StatusOK)
			if ct := r.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
				t.Errorf("Content-Type = %q", ct)
			}
			wantContains(t, r.Body, tt.want...)
		})
	}
}

func TestStatic(t *testing.T) {
	_, b := newSite(t)
	for _, p := range []string{"site.css", "cart.js", "frame.js", "widgets.js", "modal.js", "overlay.js",
		"slow.js", "alert.js", "scroll.js", "drag.js", "upload.js", "hover.js", "keys.js", "storage.js"} {
		if r := b.get("/static/" + p); r.Status != http.StatusOK || r.Body == "" {
			t.Errorf("/static/%s: status %d, %d bytes", p, r.Status, len(r.Body))
		}
	}
	wantStatus(t, b.get("/static/nope.js"), http.StatusNotFound)
}

func TestStatus(t *testing.T) {
	tests := []struct {
		path       string
		wantStatus int
		want       string
	}{
		{"/status/200", 200, "200 OK"},
		{"/status/404", 404, "404 Not Found"},
		{"/status/418", 418, "I&#39;m a teapot"},
		{"/status/500", 500, "500 Internal Server Error"},
		{"/status/503", 503, "Service Unavailable"},
		{"/status/299", 299, "Status 299"},
		{"/status/204", 204, ""},
		{"/status/302", 302, "302 Found"},
		{"/status/99", 400, "from 200 to 599"},
		{"/status/abc", 400, "from 200 to 599"},
		{"/no/such/page", 404, "There is no page at /no/such/page"},
	}
	_, b := newSite(t)
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			r := b.get(tt.path)
			wantStatus(t, r, tt.wantStatus)
			wantContains(t, r.Body, tt.want)
			if tt.wantStatus == 204 && r.Body != "" {
				t.Errorf("204 with a body: %q", r.Body)
			}
		})
	}
}

func TestSlow(t *testing.T) {
	site, b := newSite(t)
	site.slowCap = 200 * time.Millisecond // the real cap is 10 s; see TestSlowDelay

	start := time.Now()
	r := b.get("/api/slow?ms=60000")
	took := time.Since(start)
	wantStatus(t, r, http.StatusOK)
	var got struct {
		MS      int64
		Message string
	}
	if err := json.Unmarshal([]byte(r.Body), &got); err != nil {
		t.Fatal(err)
	}
	if got.MS != 200 || got.Message != "Loaded" {
		t.Errorf("reply = %+v, want 200 ms and Loaded", got)
	}
	if took < 200*time.Millisecond || took > 5*time.Second {
		t.Errorf("took %v, want about 200ms", took)
	}

	start = time.Now()
	r = b.get("/slow?ms=50")
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r.Body, "Done after 50 ms.")
	if took := time.Since(start); took < 50*time.Millisecond {
		t.Errorf("/slow?ms=50 took %v", took)
	}
	wantStatus(t, b.get("/slow?ms=-1"), http.StatusBadRequest)
	wantStatus(t, b.get("/api/slow?ms=x"), http.StatusBadRequest)
}

func TestSlowDelay(t *testing.T) {
	tests := []struct {
		query   string
		want    time.Duration
		wantErr bool
	}{
		{"", time.Second, false},
		{"ms=0", 0, false},
		{"ms=800", 800 * time.Millisecond, false},
		{"ms=10000", 10 * time.Second, false},
		{"ms=60000", 10 * time.Second, false},
		{"ms=-5", 0, true},
		{"ms=1.5", 0, true},
	}
	for _, tt := range tests {
		r := httptest.NewRequest("GET", "/slow?"+tt.query, nil)
		got, err := slowDelay(r, maxSlow)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("slowDelay(%q) = %v, %v; want %v, error %v", tt.query, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestSlowClientGone(t *testing.T) {
	_, b := newSite(t)
	b.c.Timeout = 100 * time.Millisecond
	req, _ := http.NewRequest("GET", b.base+"/slow?ms=5000", nil)
	start := time.Now()
	if _, err := b.c.Do(req); err == nil {
		t.Fatal("want a client timeout")
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("took %v", took)
	}
}

func TestBig(t *testing.T) {
	_, b := newSite(t)
	r := b.get("/big")
	wantStatus(t, r, http.StatusOK)
	if n := strings.Count(r.Body, "<tr>"); n != 1001 { // header row + 1000
		t.Errorf("%d rows, want 1001", n)
	}
	if n := strings.Count(r.Body, "<td>"); n != 3000 {
		t.Errorf("%d cells, want 3000", n)
	}
	if n := strings.Count(r.Body, `<a href="/big?rows=`); n != 20 {
		t.Errorf("%d nav links, want 20", n)
	}
	wantContains(t, r.Body, "<footer>", "1000 rows.")
	if again := b.get("/big").Body; again != r.Body {
		t.Error("the big page is not deterministic")
	}

	r = b.get("/big?rows=5")
	if n := strings.Count(r.Body, "<td>"); n != 15 {
		t.Errorf("rows=5: %d cells", n)
	}
	wantStatus(t, b.get("/big?rows=-1"), http.StatusBadRequest)
}

func TestUpload(t *testing.T) {
	site, b := newSite(t)
	ct, body := multipartBody(t, nil,
		file{Field: "files", Name: "a.txt", Content: "hello"},
		file{Field: "files", Name: "b.csv", Content: "x,y\n"})
	r := b.post("/upload", ct, body)
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r.Body, "a.txt (5 bytes)", "b.csv (4 bytes)")
	if got := site.Session(b.sid()).Uploads; len(got) != 2 || got[1].Name != "b.csv" {
		t.Errorf("Uploads = %+v", got)
	}
	wantStatus(t, b.postForm("/upload", url.Values{"x": {"y"}}), http.StatusBadRequest)
}

func TestNilOptionsAndLogger(t *testing.T) {
	var buf strings.Builder
	site := New(&Options{Logger: slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	rec := httptest.NewRecorder()
	site.ServeHTTP(rec, httptest.NewRequest("GET", "/status/503", nil))
	if rec.Code != 503 {
		t.Errorf("status %d", rec.Code)
	}
	if !strings.Contains(buf.String(), "path=/status/503 host=example.com status=503") {
		t.Errorf("log = %q", buf.String())
	}
	rec = httptest.NewRecorder()
	New(nil).ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if rec.Code != 200 {
		t.Errorf("New(nil): status %d", rec.Code)
	}
}
