package demo

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

func TestOtherHost(t *testing.T) {
	tests := map[string]string{
		"127.0.0.1:8080": "localhost:8080",
		"localhost:8080": "127.0.0.1:8080",
		"[::1]:8080":     "127.0.0.1:8080",
		"demo.test:9":    "127.0.0.1:9",
		"127.0.0.1":      "localhost",
		"localhost":      "127.0.0.1",
	}
	for in, want := range tests {
		if got := otherHost(in); got != want {
			t.Errorf("otherHost(%q) = %q, want %q", in, got, want)
		}
	}
}

var iframeSrc = regexp.MustCompile(`<iframe[^>]* src="([^"]+)"`)

func TestEmbedAndPay(t *testing.T) {
	site, b := newSite(t)
	u, err := url.Parse(b.base) // httptest listens on 127.0.0.1:PORT
	if err != nil {
		t.Fatal(err)
	}
	port := u.Port()

	for _, tt := range []struct{ host, wantHost string }{
		{"127.0.0.1:" + port, "localhost:" + port},
		{"localhost:" + port, "127.0.0.1:" + port},
	} {
		t.Run(tt.host, func(t *testing.T) {
			req, err := http.NewRequest("GET", b.base+"/embed", nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Host = tt.host
			r := b.do(req)
			wantStatus(t, r, http.StatusOK)
			m := iframeSrc.FindStringSubmatch(r.Body)
			if m == nil {
				t.Fatalf("no iframe in:\n%s", r.Body)
			}
			src, err := url.Parse(strings.ReplaceAll(m[1], "&amp;", "&"))
			if err != nil {
				t.Fatal(err)
			}
			if src.Scheme != "http" || src.Host != tt.wantHost || src.Path != "/frame/payment" {
				t.Errorf("iframe src = %s, want http://%s/frame/payment", src, tt.wantHost)
			}
		})
	}

	// The embedding page's session is named in the frame URL.
	r := b.get("/embed")
	sid := b.sid()
	src, _ := url.Parse(iframeSrc.FindStringSubmatch(r.Body)[1])
	if got := src.Query().Get("sid"); got != sid {
		t.Fatalf("frame sid = %q, want %q", got, sid)
	}

	// The frame is loaded from the other name, with no cookie, as a
	// cross-site frame would be.
	frame := newBrowser(t, b.base)
	req, _ := http.NewRequest("GET", b.base+src.RequestURI(), nil)
	req.Host = src.Host
	fr := frame.do(req)
	wantStatus(t, fr, http.StatusOK)
	wantContains(t, fr.Body, "<h1>Card payment</h1>", `<label for="card">Card number</label>`, `>Pay</button>`, `data-sid="`+sid+`"`)

	if r := frame.post("/frame/pay", "application/json", strings.NewReader(`{"sid": "`+sid+`", "card": ""}`)); r.Status != http.StatusUnprocessableEntity {
		t.Errorf("empty card: status %d", r.Status)
	}
	if site.Session(sid).Paid {
		t.Fatal("paid before Pay")
	}
	pr := frame.post("/frame/pay", "application/json", strings.NewReader(`{"sid": "`+sid+`", "card": "4242 4242 4242 4242"}`))
	wantStatus(t, pr, http.StatusOK)
	wantContains(t, pr.Body, `"paid":true`)
	st := site.Session(sid)
	if !st.Paid || st.PaidCard != "4242 4242 4242 4242" {
		t.Errorf("after Pay: Paid=%v PaidCard=%q", st.Paid, st.PaidCard)
	}
}

func TestFrameWithoutSID(t *testing.T) {
	site, b := newSite(t)
	wantStatus(t, b.get("/frame/payment"), http.StatusOK)
	r := b.post("/frame/pay", "application/json", strings.NewReader(`{"sid": "unknown", "card": "4000"}`))
	wantStatus(t, r, http.StatusOK)
	if !site.Session(b.sid()).Paid {
		t.Error("an unknown sid should fall back to the caller's own session")
	}
}
