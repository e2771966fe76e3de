package adversarial

import (
	"context"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/waymark-dev/waymark/pilot"
)

// Request is one request the server received.
type Request struct {
	Method string
	Path   string // the URL path, without the query
	Query  string
	Body   string // the body, read whole
	Header http.Header
}

// Server is a loopback HTTP server that serves hostile pages and counts
// every request it receives, so a test can say "the server got 0 POSTs".
// It is safe for concurrent use.
type Server struct {
	*httptest.Server

	mu    sync.Mutex
	pages map[string]string // path → HTML, served as text/html
	files fs.FS             // served when pages has no entry; may be nil
	log   []Request
	hold  *hold // set by HoldAfter
}

// hold is a path whose requests past the first n wait for release.
type hold struct {
	path    string
	n       int
	held    chan struct{}
	release chan struct{}
}

// NewServer starts a server on 127.0.0.1 that serves pages (path → HTML),
// and closes it when the test ends. A path not in pages is 404 — and still
// counted. Every response forbids caching, so each load reaches the server.
func NewServer(t testing.TB, pages map[string]string) *Server {
	t.Helper()
	s := &Server{pages: map[string]string{}}
	for p, h := range pages {
		s.pages[p] = h
	}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// NewServerOn is NewServer listening on addr ("127.0.0.2:0"): a second
// loopback host, for a page that must not reach it.
func NewServerOn(t testing.TB, addr string, pages map[string]string) *Server {
	t.Helper()
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("listen on %s: %v", addr, err)
	}
	s := &Server{pages: map[string]string{}}
	for p, h := range pages {
		s.pages[p] = h
	}
	s.Server = &httptest.Server{Listener: l, Config: &http.Server{Handler: http.HandlerFunc(s.serve)}}
	s.Start()
	t.Cleanup(s.Close)
	return s
}

// Port returns the port the server listens on.
func (s *Server) Port() string {
	_, port, _ := net.SplitHostPort(s.Listener.Addr().String())
	return port
}

// NewFSServer is NewServer serving the files of fsys (an fs.FS rooted
// where "/" is), beside pages, which win on a clash.
func NewFSServer(t testing.TB, fsys fs.FS, pages map[string]string) *Server {
	t.Helper()
	s := NewServer(t, pages)
	s.mu.Lock()
	s.files = fsys
	s.mu.Unlock()
	return s
}

// Handle sets (or replaces) the page served at path.
func (s *Server) Handle(path, html string) {
	s.mu.Lock()
	s.pages[path] = html
	s.mu.Unlock()
}

// HoldAfter makes the server hold each request for path after the next n
// until release is called (or the test ends, or the client gives up):
// a test stops what waymark is doing at a known step instead of racing
// it. held receives once for each request held.
func (s *Server) HoldAfter(t testing.TB, path string, n int) (held <-chan struct{}, release func()) {
	h := &hold{path: path, n: n, held: make(chan struct{}, 64), release: make(chan struct{})}
	var once sync.Once
	release = func() { once.Do(func() { close(h.release) }) }
	t.Cleanup(release)
	s.mu.Lock()
	s.hold = h
	s.mu.Unlock()
	return h.held, release
}

// URL returns the server's address joined with path ("/pay?x=1").
func (s *Server) URL(path string) string { return s.Server.URL + path }

// Host returns the server's host:port.
func (s *Server) Host() string { return strings.TrimPrefix(s.Server.URL, "http://") }

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	s.mu.Lock()
	s.log = append(s.log, Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Body: string(body), Header: r.Header.Clone()})
	page, ok := s.pages[r.URL.Path]
	files := s.files
	h := s.hold
	var wait bool
	if h != nil && h.path == r.URL.Path {
		h.n--
		wait = h.n < 0
	}
	s.mu.Unlock()
	if wait {
		select {
		case h.held <- struct{}{}:
		default:
		}
		select {
		case <-h.release:
		case <-r.Context().Done():
			return
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	if ok {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, page)
		return
	}
	if files != nil {
		http.FileServerFS(files).ServeHTTP(w, r)
		return
	}
	http.NotFound(w, r)
}

// Requests returns a copy of every request received so far, oldest first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.log)
}

// Count returns how many requests had method and path; an empty method or
// path matches any.
func (s *Server) Count(method, path string) int {
	n := 0
	for _, r := range s.Requests() {
		if (method == "" || r.Method == method) && (path == "" || r.Path == path) {
			n++
		}
	}
	return n
}

// Sent returns how many requests were not GET or HEAD: the requests that
// could have sent something (a form, a fetch with a body).
func (s *Server) Sent() int {
	n := 0
	for _, r := range s.Requests() {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			n++
		}
	}
	return n
}

// Reset forgets the requests received so far (after a page's own load,
// say, so the test counts only what an action caused).
func (s *Server) Reset() {
	s.mu.Lock()
	s.log = nil
	s.mu.Unlock()
}

// Model wraps a [pilot.Model] (a scripted one, usually) and logs every
// turn sent to it, so a test can assert what reached the model. It is safe
// for concurrent use.
type Model struct {
	inner pilot.Model

	mu    sync.Mutex
	turns []pilot.Turn
}

var _ pilot.Model = (*Model)(nil)

// Wrap returns a model that logs every turn and passes it on to inner. A
// nil inner answers every call with [pilot.ErrCannot], for a test that
// only wants to see what would be asked.
func Wrap(inner pilot.Model) *Model { return &Model{inner: inner} }

// Next logs the turn and passes it on.
func (m *Model) Next(ctx context.Context, turn pilot.Turn) (pilot.Reply, error) {
	c := turn
	c.Messages = slices.Clone(turn.Messages)
	m.mu.Lock()
	m.turns = append(m.turns, c)
	m.mu.Unlock()
	if m.inner == nil {
		return pilot.Reply{}, pilot.ErrCannot
	}
	return m.inner.Next(ctx, turn)
}

// Turns returns the turns sent so far, oldest first.
func (m *Model) Turns() []pilot.Turn {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.turns)
}

// Prompts returns the text of each turn sent so far, the system prompt
// and every message joined, oldest first.
func (m *Model) Prompts() []string {
	var out []string
	for _, t := range m.Turns() {
		var b strings.Builder
		b.WriteString(t.System)
		for _, msg := range t.Messages {
			b.WriteString("\n")
			b.WriteString(msg.Text)
		}
		out = append(out, b.String())
	}
	return out
}

// NoLeak fails the test if any prompt holds a secret, or any piece of it
// of minPiece bytes or more (minPiece ≤ 0 means the whole secret only): a
// code typed one digit a box must not show as five of six digits either.
func (m *Model) NoLeak(t testing.TB, secret string, minPiece int) {
	t.Helper()
	if minPiece <= 0 || minPiece > len(secret) {
		minPiece = len(secret)
	}
	for i, p := range m.Prompts() {
		for n := len(secret); n >= minPiece; n-- {
			for j := 0; j+n <= len(secret); j++ {
				if piece := secret[j : j+n]; strings.Contains(p, piece) {
					t.Errorf("prompt %d holds %q of the secret:\n%s", i+1, piece, p)
					goto next
				}
			}
		}
	next:
	}
}

// Fenced fails the test if marker appears in any prompt outside a
// <page_content>…</page_content> fence, or if a prompt's fence tags do not
// pair up (a page that closed the fence early). Page text a test serves
// should carry a marker no prompt would write of its own accord.
func (m *Model) Fenced(t testing.TB, marker string) {
	t.Helper()
	for i, p := range m.Prompts() {
		if err := FencedIn(p, marker); err != "" {
			t.Errorf("prompt %d: %s:\n%s", i+1, err, p)
		}
	}
}

// FencedIn reports why marker is not fenced in prompt, or "" when every
// occurrence is inside a well-formed fence.
func FencedIn(prompt, marker string) string {
	const open, close = "<page_content>", "</page_content>"
	outside := strings.Builder{}
	rest := prompt
	for {
		i := strings.Index(rest, open)
		j := strings.Index(rest, close)
		if i < 0 {
			if j >= 0 {
				return "a closing fence tag with no opening one"
			}
			outside.WriteString(rest)
			break
		}
		if j >= 0 && j < i {
			return "a closing fence tag before an opening one"
		}
		outside.WriteString(rest[:i])
		rest = rest[i+len(open):]
		j = strings.Index(rest, close)
		if j < 0 {
			return "an opening fence tag never closed"
		}
		if k := strings.Index(rest[:j], open); k >= 0 {
			return "a fence opened inside a fence"
		}
		rest = rest[j+len(close):]
	}
	if strings.Contains(outside.String(), marker) {
		return "page text " + quote(marker) + " outside the fence"
	}
	return ""
}

func quote(s string) string { return "\"" + s + "\"" }
