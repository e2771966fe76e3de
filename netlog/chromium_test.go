package netlog_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"math/big"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/netlog"
)

// Values a summary must never hold; the servers below put them in a
// cookie, a header and a query.
const (
	cookieValue = "SECRETCOOKIEVALUE"
	headerValue = "HEADERVALUE42"
	queryValue  = "QUERYVALUE77"
)

// testCert is a self-signed certificate for 127.0.0.1 and the
// --ignore-certificate-errors-spki-list value that makes Chromium trust it
// (the hash of its public key), as a test CA would.
func testCert(t *testing.T) (tls.Certificate, string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "waymark netlog test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
		DNSNames:     []string{"localhost"},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(leaf.RawSubjectPublicKeyInfo)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, base64.StdEncoding.EncodeToString(sum[:])
}

// chromiumLog loads url in a headless Chromium of its own, which logs to
// a NetLog in Default capture mode, and returns the log's path once
// Chromium has exited (--dump-dom exits after the load event).
func chromiumLog(t *testing.T, url, trustSPKI string) string {
	t.Helper()
	path := browsertest.Chrome(t)
	dir := t.TempDir()
	logPath := filepath.Join(dir, "netlog.json")
	args := []string{
		"--headless", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
		"--user-data-dir=" + filepath.Join(dir, "profile"),
		"--log-net-log=" + logPath, "--net-log-capture-mode=Default",
		"--disable-quic", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-features=Translate,OptimizationHints,MediaRouter,AutofillServerCommunication",
	}
	args = append(args, browsertest.GuardArgs...)
	if trustSPKI != "" {
		args = append(args, "--ignore-certificate-errors-spki-list="+trustSPKI)
	}
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// Chromium's --dump-dom run itself segfaults now and then (seen once
	// in a loaded make test, 2026-12-06): what is under test is the log a
	// whole run writes, so a run the browser crashed in is done again,
	// once, with a fresh profile and log.
	for try := 1; ; try++ {
		os.RemoveAll(filepath.Join(dir, "profile"))
		os.Remove(logPath)
		cmd := exec.CommandContext(ctx, path, append(args, "--dump-dom", url)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		if err == nil {
			return logPath
		}
		var ee *exec.ExitError
		if try == 1 && ctx.Err() == nil && errors.As(err, &ee) && ee.ProcessState != nil && !ee.Exited() {
			t.Logf("chromium --dump-dom %s died (%v); running it again", url, err)
			continue
		}
		t.Fatalf("chromium --dump-dom %s: %v\n%s", url, err, stderr.String())
	}
}

// summarize reads a log's summary and checks it holds no secret value.
func summarize(t *testing.T, logPath string) *netlog.Summary {
	t.Helper()
	f, err := os.Open(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := netlog.Summarize(f, nil)
	if err != nil {
		t.Fatalf("Summarize: %v", err)
	}
	noSecrets(t, s)
	return s
}

// noSecrets fails when the summary, as JSON or Markdown, holds a value of
// a cookie, a header or a query.
func noSecrets(t *testing.T, s *netlog.Summary) {
	t.Helper()
	js, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{string(js), s.Markdown(), s.Brief()} {
		for _, v := range []string{cookieValue, headerValue, queryValue} {
			if strings.Contains(out, v) {
				t.Errorf("the summary holds %q:\n%s", v, out)
			}
		}
	}
}

// find returns the summary's request whose URL starts with prefix.
func find(t *testing.T, s *netlog.Summary, prefix string) netlog.Request {
	t.Helper()
	for _, r := range s.Requests {
		if strings.HasPrefix(r.URL, prefix) {
			return r
		}
	}
	t.Fatalf("no request to %s in the summary:\n%s", prefix, s.Markdown())
	return netlog.Request{}
}

// TestChromiumH2 loads a page over TLS and HTTP/2 from a server with a
// test certificate the browser trusts.
func TestChromiumH2(t *testing.T) {
	cert, spki := testCert(t)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "sid", Value: cookieValue})
		w.Header().Set("X-Thing", headerValue)
		w.Header().Set("Server", "netlog-test")
		if r.URL.Path == "/api" {
			fmt.Fprint(w, `{"ok":true}`)
			return
		}
		// The script's request sends the cookie back, and the log has its
		// request headers.
		fmt.Fprintf(w, `<html><body>%s<script>fetch("/api?key=%s")</script></body></html>`, r.Proto, queryValue)
	}))
	srv.EnableHTTP2 = true
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	srv.StartTLS()
	t.Cleanup(srv.Close)

	logPath := chromiumLog(t, srv.URL+"/page?token="+queryValue+"#frag", spki)
	raw, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	// The check can fail: the log itself holds the values.
	for _, v := range []string{headerValue, queryValue} {
		if !bytes.Contains(raw, []byte(v)) {
			t.Errorf("the raw NetLog does not hold %q: the secrets check proves nothing", v)
		}
	}
	s := summarize(t, logPath)
	if s.Truncated {
		t.Error("a whole log is read as truncated")
	}
	if s.CaptureMode != "Default" {
		t.Errorf("capture mode %q", s.CaptureMode)
	}
	r := find(t, s, srv.URL+"/page")
	if r.URL != srv.URL+"/page?token" {
		t.Errorf("URL %q, want the query key without its value and no fragment", r.URL)
	}
	if r.Method != "GET" || r.Status != 200 || r.Protocol != "h2" || r.Error != "" {
		t.Errorf("request %+v, want GET 200 h2 with no error", r)
	}
	if r.TLS == nil || r.TLS.Version != "TLS 1.3" || r.TLS.ALPN != "h2" || r.TLS.Cipher == "" {
		t.Errorf("TLS %+v, want TLS 1.3, a cipher, ALPN h2", r.TLS)
	}
	if r.Timing.TotalMS == nil || r.Timing.FirstByteMS == nil || *r.Timing.FirstByteMS > *r.Timing.TotalMS {
		t.Errorf("timing %+v", r.Timing)
	}
	if r.Signals["server"] != "netlog-test" {
		t.Errorf("signals %v, want server", r.Signals)
	}
	api := find(t, s, srv.URL+"/api")
	if api.URL != srv.URL+"/api?key" || api.Status != 200 || api.Protocol != "h2" {
		t.Errorf("fetch %+v", api)
	}
	if brief := s.Brief(); strings.Contains(brief, srv.URL) {
		t.Errorf("Brief names a request that did not fail: %s", brief)
	}

	t.Run("truncated", func(t *testing.T) { truncated(t, raw, srv.URL) })
}

// truncated cuts the h2 log at random bytes: each cut is read as far as it
// goes, says it was cut, and holds no request the whole log does not.
func truncated(t *testing.T, raw []byte, origin string) {
	seed := uint64(time.Now().UnixNano())
	rng := mrand.New(mrand.NewPCG(seed, 1))
	full, err := netlog.Summarize(bytes.NewReader(raw), nil)
	if err != nil {
		t.Fatal(err)
	}
	urls := map[string]bool{}
	for _, r := range full.Requests {
		urls[r.Method+" "+r.URL] = true
	}
	// 0 and the middle of the events always; the rest at random.
	cuts := []int{0, len(raw) / 2}
	for range 8 {
		cuts = append(cuts, rng.IntN(len(raw)-4))
	}
	for _, n := range cuts {
		s, err := netlog.Summarize(bytes.NewReader(raw[:n]), nil)
		if err != nil {
			t.Fatalf("cut at byte %d of %d (seed %d): %v", n, len(raw), seed, err)
		}
		if !s.Truncated {
			t.Errorf("cut at byte %d of %d (seed %d): not marked truncated", n, len(raw), seed)
		}
		if s.Events > full.Events {
			t.Errorf("cut at %d: %d events, more than the whole log's %d", n, s.Events, full.Events)
		}
		for _, r := range s.Requests {
			if !urls[r.Method+" "+r.URL] {
				t.Errorf("cut at %d (seed %d): request %s %s is not in the whole log", n, seed, r.Method, r.URL)
			}
		}
		noSecrets(t, s)
		if !strings.Contains(s.Markdown(), "cut short") {
			t.Errorf("cut at %d: the Markdown does not say the log is cut", n)
		}
	}
	// The middle cut still has the events before it.
	mid, _ := netlog.Summarize(bytes.NewReader(raw[:len(raw)/2]), nil)
	if mid.Events == 0 {
		t.Errorf("cut in the middle: no events read")
	}
}

// TestChromiumRefused loads a port nothing listens on.
func TestChromiumRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	s := summarize(t, chromiumLog(t, "http://"+addr+"/gone?session="+queryValue, ""))
	r := find(t, s, "http://"+addr+"/gone")
	if r.Error != "ERR_CONNECTION_REFUSED" || r.Stage != "connect" || r.Status != 0 || r.Protocol != "" {
		t.Errorf("request %+v, want ERR_CONNECTION_REFUSED while connecting", r)
	}
	if !hasHostError(s, addr, "ERR_CONNECTION_REFUSED") {
		t.Errorf("errors by host %+v, want %s counted", s.ErrorsByHost, addr)
	}
	if b := s.Brief(); !strings.Contains(b, "ERR_CONNECTION_REFUSED connecting") {
		t.Errorf("Brief %q", b)
	}
}

// TestChromiumUntrustedCert loads a TLS server whose certificate the
// browser does not trust.
func TestChromiumUntrustedCert(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "never shown")
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes
	srv.StartTLS()
	t.Cleanup(srv.Close)
	_, otherSPKI := testCert(t) // trusted: not this server's
	s := summarize(t, chromiumLog(t, srv.URL+"/?q="+queryValue, otherSPKI))
	r := find(t, s, srv.URL+"/")
	if !strings.HasPrefix(r.Error, "ERR_CERT_") || r.Stage != "tls" || r.Status != 0 {
		t.Errorf("request %+v, want an ERR_CERT_ error in the TLS handshake", r)
	}
	if r.TLS == nil || r.TLS.Error != r.Error {
		t.Errorf("TLS %+v, want the handshake's error", r.TLS)
	}
}

// resetServer is an HTTP/1.1 server that answers "/" with page, and
// every other path by writing answer (maybe nothing) after the request
// and resetting the connection (SO_LINGER 0).
func resetServer(t *testing.T, page, answer string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return // closed by the cleanup
			}
			go serveReset(c.(*net.TCPConn), page, answer)
		}
	}()
	return "http://" + ln.Addr().String()
}

func serveReset(c *net.TCPConn, page, answer string) {
	buf := make([]byte, 4096)
	var req []byte
	for !bytes.Contains(req, []byte("\r\n\r\n")) {
		n, err := c.Read(buf)
		if err != nil {
			c.Close()
			return
		}
		req = append(req, buf[:n]...)
	}
	switch {
	case bytes.HasPrefix(req, []byte("GET / ")):
		fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(page), page)
		c.Close()
	case bytes.HasPrefix(req, []byte("GET /favicon")):
		io.WriteString(c, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
		c.Close()
	default:
		io.WriteString(c, answer)
		c.SetLinger(0)
		c.Close()
	}
}

// TestChromiumReset loads a page whose server resets the connection of an
// image, once in the middle of the body and once before any answer. (A
// document cut short never fires its load event, which --dump-dom waits
// for; an image that fails does.)
func TestChromiumReset(t *testing.T) {
	page := `<html><body><img src="/img?x=` + queryValue + `"></body></html>`
	t.Run("mid-response", func(t *testing.T) {
		base := resetServer(t, page, "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nX-Thing: "+headerValue+"\r\nContent-Length: 100000\r\n\r\n\x89PNG\r\n\x1a\npartial")
		s := summarize(t, chromiumLog(t, base+"/", ""))
		r := find(t, s, base+"/img")
		if r.Status != 200 || r.Protocol != "h1" || r.Error != "ERR_CONNECTION_RESET" || r.Stage != "response" {
			t.Errorf("request %+v, want 200 h1 then ERR_CONNECTION_RESET in the response", r)
		}
	})
	t.Run("before-answer", func(t *testing.T) {
		base := resetServer(t, page, "")
		s := summarize(t, chromiumLog(t, base+"/", ""))
		r := find(t, s, base+"/img")
		if r.Status != 0 || r.Error != "ERR_CONNECTION_RESET" || r.Stage != "request" {
			t.Errorf("request %+v, want ERR_CONNECTION_RESET before any answer", r)
		}
		if b := s.Brief(); !strings.Contains(b, "ERR_CONNECTION_RESET before any answer") {
			t.Errorf("Brief %q", b)
		}
	})
}

func hasHostError(s *netlog.Summary, host, errName string) bool {
	for _, he := range s.ErrorsByHost {
		for _, e := range he.Errors {
			if he.Host == host && e.Error == errName && e.Count > 0 {
				return true
			}
		}
	}
	return false
}
