package driver_test

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
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
)

// This file is the proof that an in-tab call (Session.Fetch) is the
// browser's own request: a TLS server of the test's records each
// connection's ClientHello as a JA4-style fingerprint and the HTTP/2
// SETTINGS, WINDOW_UPDATE and pseudo-header order of each request, and
// the in-tab call must match the browser's navigation while a Go client
// does not.

// print is what the server saw of one request and its connection.
type print struct {
	JA4        string
	Settings   string   // the client's first SETTINGS, in order: "1:65536,2:0,…"
	Window     uint32   // its first connection WINDOW_UPDATE
	Pseudo     []string // the pseudo-headers in order
	Headers    []string // every header name in order
	Cookie     string
	Proto      string
	RemoteAddr string
}

// isGREASE reports a GREASE value (RFC 8701): 0x?a?a with equal bytes.
func isGREASE(v uint16) bool { return v&0x0f0f == 0x0a0a && v>>8 == v&0xff }

func hexList(vs []uint16) string {
	var out []string
	for _, v := range vs {
		out = append(out, fmt.Sprintf("%04x", v))
	}
	return strings.Join(out, ",")
}

func hash12(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])[:12]
}

// ja4 is a JA4-style fingerprint of a ClientHello: TLS version, SNI or
// not, counts of ciphers and extensions, ALPN; a hash of the sorted
// ciphers; a hash of the sorted extensions (less SNI and ALPN) and the
// signature schemes in order. GREASE is left out and extensions sorted,
// so Chrome's per-connection permutation and GREASE do not change it,
// and so are the extensions of a resumed session.
// (Not the official JA4: no raw bytes, so no signature-algorithm-less
// edge cases; enough to tell a client apart.)
func ja4(h *tls.ClientHelloInfo) string {
	var ciphers, exts, sigs []uint16
	for _, c := range h.CipherSuites {
		if !isGREASE(c) {
			ciphers = append(ciphers, c)
		}
	}
	for _, e := range h.Extensions {
		// pre_shared_key and early_data come with a resumed session, not
		// with the client: the same browser sends them on its second
		// connection and not on its first.
		if !isGREASE(e) && e != 0x0029 && e != 0x002a {
			exts = append(exts, e)
		}
	}
	for _, s := range h.SignatureSchemes {
		if !isGREASE(uint16(s)) {
			sigs = append(sigs, uint16(s))
		}
	}
	version := "12"
	if slices.Contains(h.SupportedVersions, tls.VersionTLS13) {
		version = "13"
	}
	sni := "i"
	if h.ServerName != "" {
		sni = "d"
	}
	alpn := "00"
	if len(h.SupportedProtos) > 0 && h.SupportedProtos[0] != "" {
		p := h.SupportedProtos[0]
		alpn = p[:1] + p[len(p)-1:]
	}
	sorted := slices.Clone(ciphers)
	slices.Sort(sorted)
	var rest []uint16
	for _, e := range exts {
		if e != 0x0000 && e != 0x0010 { // SNI, ALPN
			rest = append(rest, e)
		}
	}
	slices.Sort(rest)
	var groups []string
	for _, g := range h.SupportedCurves {
		if !isGREASE(uint16(g)) {
			groups = append(groups, fmt.Sprintf("%04x", uint16(g)))
		}
	}
	return fmt.Sprintf("t%s%s%02d%02d%s_%s_%s_g%s", version, sni, min(len(ciphers), 99), min(len(exts), 99), alpn,
		hash12(hexList(sorted)), hash12(hexList(rest)+"_"+hexList(sigs)), hash12(strings.Join(groups, ",")))
}

// recConn is a TLS connection whose decrypted bytes from the client are
// kept, for the HTTP/2 frames.
type recConn struct {
	*tls.Conn
	ja4 string
	mu  sync.Mutex
	buf bytes.Buffer
}

func (c *recConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.mu.Lock()
	if c.buf.Len() < 1<<20 {
		c.buf.Write(p[:n])
	}
	c.mu.Unlock()
	return n, err
}

func (c *recConn) bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.buf.Bytes())
}

type connKey struct{}

// printServer is the recording server. Its handler answers /page with a
// page that sets a cookie, and anything else with JSON.
type printServer struct {
	url   string
	spki  string // for --ignore-certificate-errors-spki-list
	mu    sync.Mutex
	seen  map[string]print // by path
	errs  []error
	conns []net.Conn
}

// closeConns closes every connection so far, so that the next request
// comes on a new one, with a ClientHello of its own.
func (ps *printServer) closeConns() {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	for _, c := range ps.conns {
		c.Close()
	}
	ps.conns = nil
}

func newPrintServer(t *testing.T) *printServer {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(7), Subject: pkix.Name{CommonName: "fingerprint test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, _ := x509.ParseCertificate(der)
	sum := sha256.Sum256(leaf.RawSubjectPublicKeyInfo)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ps := &printServer{url: "https://" + ln.Addr().String(), spki: base64.StdEncoding.EncodeToString(sum[:]), seen: map[string]print{}}
	// x/net's HTTP/2 server, deprecated for net/http's: only its
	// ServeConn serves a connection that is TLS but not a *tls.Conn (ours
	// records what it decrypts), with the TLS state taken from
	// ConnectionState.
	//lint:ignore SA1019 see above
	h2 := &http2.Server{}
	var hellos sync.Map // raw conn → ja4
	cfg := &tls.Config{
		Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}},
		NextProtos:   []string{"h2", "http/1.1"},
		GetConfigForClient: func(h *tls.ClientHelloInfo) (*tls.Config, error) {
			hellos.Store(h.Conn, ja4(h))
			return nil, nil
		},
	}
	go func() { // ends when the cleanup closes ln
		for {
			raw, err := ln.Accept()
			if err != nil {
				return
			}
			ps.mu.Lock()
			ps.conns = append(ps.conns, raw)
			ps.mu.Unlock()
			go func() {
				tc := tls.Server(raw, cfg)
				if err := tc.Handshake(); err != nil {
					raw.Close()
					return
				}
				fp, _ := hellos.Load(raw)
				rc := &recConn{Conn: tc, ja4: fmt.Sprint(fp)}
				if tc.ConnectionState().NegotiatedProtocol != "h2" {
					raw.Close() // every client here speaks HTTP/2
					return
				}
				// Returns when the conn ends.
				//lint:ignore SA1019 see h2 above
				h2.ServeConn(rc, &http2.ServeConnOpts{
					Context: context.WithValue(context.Background(), connKey{}, rc),
					Handler: http.HandlerFunc(ps.serve),
				})
			}()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return ps
}

func (ps *printServer) serve(w http.ResponseWriter, r *http.Request) {
	rc, _ := r.Context().Value(connKey{}).(*recConn)
	p := print{Proto: r.Proto, RemoteAddr: r.RemoteAddr}
	if c, err := r.Cookie("sid"); err == nil {
		p.Cookie = c.Value
	}
	if rc != nil {
		p.JA4 = rc.ja4
		if err := p.readFrames(rc.bytes(), r.URL.RequestURI()); err != nil {
			ps.mu.Lock()
			ps.errs = append(ps.errs, fmt.Errorf("%s: %w", r.URL.Path, err))
			ps.mu.Unlock()
		}
	}
	ps.mu.Lock()
	ps.seen[r.URL.Path] = p
	ps.mu.Unlock()
	if r.URL.Path == "/page" {
		http.SetCookie(w, &http.Cookie{Name: "sid", Value: "session-42", Path: "/", Secure: true})
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<title>Prints</title><p>the page</p>")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, `{"rows":[1,2,3]}`)
}

// readFrames reads the client's HTTP/2 preface, its first SETTINGS and
// WINDOW_UPDATE, and the header order of the request for path.
func (p *print) readFrames(b []byte, path string) error {
	if !bytes.HasPrefix(b, []byte(http2.ClientPreface)) {
		return errors.New("no HTTP/2 preface")
	}
	fr := http2.NewFramer(io.Discard, bytes.NewReader(b[len(http2.ClientPreface):]))
	fr.ReadMetaHeaders = hpack.NewDecoder(65536, nil)
	for {
		f, err := fr.ReadFrame()
		if err != nil {
			return fmt.Errorf("no HEADERS for %s: %w", path, err)
		}
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if !f.IsAck() && p.Settings == "" {
				var s []string
				_ = f.ForeachSetting(func(st http2.Setting) error {
					s = append(s, fmt.Sprintf("%d:%d", st.ID, st.Val))
					return nil
				})
				p.Settings = strings.Join(s, ",")
			}
		case *http2.WindowUpdateFrame:
			if f.StreamID == 0 && p.Window == 0 {
				p.Window = f.Increment
			}
		case *http2.MetaHeadersFrame:
			var pseudo, names []string
			for _, h := range f.Fields {
				if h.IsPseudo() {
					pseudo = append(pseudo, h.Name)
				}
				names = append(names, h.Name)
			}
			if f.PseudoValue("path") == path {
				p.Pseudo, p.Headers = pseudo, names
				return nil
			}
		}
	}
}

func (ps *printServer) get(t *testing.T, path string) print {
	t.Helper()
	ps.mu.Lock()
	defer ps.mu.Unlock()
	for _, err := range ps.errs {
		t.Error(err)
	}
	p, ok := ps.seen[path]
	if !ok {
		t.Fatalf("the server saw no request for %s", path)
	}
	return p
}

// TestFetchIsTheBrowsersOwnRequest: a call made with Session.Fetch has
// the browser's TLS fingerprint, HTTP/2 settings and pseudo-header order,
// and its cookies; a Go client's request to the same server does not, so
// the check can fail.
func TestFetchIsTheBrowsersOwnRequest(t *testing.T) {
	t.Parallel()
	path := browsertest.Chrome(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ps := newPrintServer(t)
	b, err := driver.Launch(ctx, driver.Options{ExecPath: path,
		Args: append(slices.Clone(browsertest.GuardArgs), "--ignore-certificate-errors-spki-list="+ps.spki)})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	s, err := b.Session(ctx, "prints")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open(ctx, calls.OpenRequest{URL: ps.url + "/page"}); err != nil {
		t.Fatal(err)
	}
	// The call comes on a connection of its own: its ClientHello is its
	// own, not the navigation's.
	ps.closeConns()
	res, err := s.Fetch(ctx, calls.FetchRequest{URL: "/api/rows?page=2", Headers: map[string]string{"Accept": "application/json"}})
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	if res.Status != 200 || res.Body != `{"rows":[1,2,3]}` || res.URL != ps.url+"/api/rows?page=2" {
		t.Errorf("fetch result %+v", res)
	}

	// A Go client, with HTTP/2 over TLS too.
	gc := &http.Client{Transport: &http.Transport{ForceAttemptHTTP2: true,
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true, NextProtos: []string{"h2"}}}}
	resp, err := gc.Get(ps.url + "/go")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	gc.CloseIdleConnections()

	nav, call, goc := ps.get(t, "/page"), ps.get(t, "/api/rows"), ps.get(t, "/go")
	t.Logf("browser: %s settings %s window %d pseudo %v", nav.JA4, nav.Settings, nav.Window, nav.Pseudo)
	t.Logf("in-tab:  %s settings %s window %d pseudo %v headers %v", call.JA4, call.Settings, call.Window, call.Pseudo, call.Headers)
	t.Logf("Go:      %s settings %s window %d pseudo %v", goc.JA4, goc.Settings, goc.Window, goc.Pseudo)
	if nav.Proto != "HTTP/2.0" || call.Proto != "HTTP/2.0" || goc.Proto != "HTTP/2.0" {
		t.Fatalf("protocols %s, %s, %s; want HTTP/2 for all", nav.Proto, call.Proto, goc.Proto)
	}
	if nav.JA4 == "" || nav.Settings == "" || len(nav.Pseudo) != 4 {
		t.Fatalf("the navigation's fingerprint is incomplete: %+v", nav)
	}
	if call.JA4 != nav.JA4 || call.Settings != nav.Settings || call.Window != nav.Window || !slices.Equal(call.Pseudo, nav.Pseudo) {
		t.Errorf("the in-tab call is not the browser's:\n  browser %+v\n  in-tab  %+v", nav, call)
	}
	if call.RemoteAddr == nav.RemoteAddr {
		t.Errorf("the in-tab call came on the navigation's connection (%s); the test closed it to get a ClientHello of the call's own", call.RemoteAddr)
	}
	if call.Cookie != "session-42" {
		t.Errorf("the in-tab call sent cookie %q, want the page's session-42", call.Cookie)
	}
	if goc.JA4 == nav.JA4 || goc.Settings == nav.Settings {
		t.Errorf("a Go client looks like the browser (the check cannot fail):\n  browser %+v\n  Go      %+v", nav, goc)
	}
}
