package drift

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// Server serves the corpus on loopback and keeps the truth: every page
// load gets fresh opaque tokens for its controls, and a click reaches
// the server as its token, which only the server maps back to the
// control and the run it belongs to. The page holds nothing that names
// the target.
//
//	/app/SCENARIO                 the variant the runner set for the scenario
//	/pw/SCENARIO/VARIANT          a variant for Playwright's locators
//	/mark/SCENARIO/VARIANT/LOC    the clicks that follow on that variant's
//	                              loads are the Playwright locator LOC's
//	/f/LOAD/N                     the N-th frame of a load
//	GET /h/TOKEN                  a control's click
type Server struct {
	mu      sync.Mutex
	cases   map[string]*Case
	current map[string]served // by scenario
	loads   []*loaded
	tokens  map[string]hit
	hits    []hit
	marks   map[string]string // a Playwright load's key → the locator clicking now
}

type served struct {
	key  string // what the loads are counted under
	body *El
}

type loaded struct {
	key  string
	load *Load
}

type hit struct{ key, ctl string }

// NewServer serves cases.
func NewServer(cases []Case) *Server {
	s := &Server{cases: map[string]*Case{}, current: map[string]served{}, tokens: map[string]hit{}, marks: map[string]string{}}
	for i := range cases {
		s.cases[cases[i].Name] = &cases[i]
	}
	return s
}

// Set makes /app/SCENARIO serve body, its loads counted under key.
func (s *Server) Set(scenario, key string, body *El) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.current[scenario] = served{key: key, body: body}
}

// Hits returns the controls whose clicks reached the server from loads
// counted under key, in order.
func (s *Server) Hits(key string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, h := range s.hits {
		if h.key == key {
			out = append(out, h.ctl)
		}
	}
	return out
}

// Loads counts the page loads counted under key.
func (s *Server) Loads(key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, l := range s.loads {
		if l.key == key {
			n++
		}
	}
	return n
}

func newToken() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// ServeHTTP serves pages, frames and clicks.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	switch {
	case len(parts) == 2 && parts[0] == "h":
		s.mu.Lock()
		if h, ok := s.tokens[parts[1]]; ok {
			if loc, ok := s.marks[h.key]; ok {
				h.key = loc
			}
			s.hits = append(s.hits, h)
		}
		s.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	case len(parts) == 2 && parts[0] == "app":
		s.mu.Lock()
		cur, ok := s.current[parts[1]]
		s.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		s.page(w, parts[1], cur)
	case len(parts) == 4 && parts[0] == "mark":
		// Playwright's locators click one after the other on one load
		// of a variant, each click done (its request answered) before
		// the next is marked.
		s.mu.Lock()
		s.marks["pw/"+parts[1]+"/"+parts[2]] = PlaywrightKey(parts[3], parts[1], parts[2])
		s.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	case len(parts) == 3 && parts[0] == "pw":
		c := s.cases[parts[1]]
		if c == nil {
			http.NotFound(w, r)
			return
		}
		for _, v := range c.Variants {
			if v.Name == parts[2] {
				s.page(w, c.Name, served{key: "pw/" + c.Name + "/" + v.Name, body: v.Body})
				return
			}
		}
		http.NotFound(w, r)
	case len(parts) == 3 && parts[0] == "f":
		id, err1 := strconv.Atoi(parts[1])
		n, err2 := strconv.Atoi(parts[2])
		s.mu.Lock()
		var doc string
		if err1 == nil && err2 == nil && id >= 0 && id < len(s.loads) && n >= 0 && n < len(s.loads[id].load.Frames) {
			doc = s.loads[id].load.Frames[n]
		}
		s.mu.Unlock()
		if doc == "" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(doc))
	default:
		http.NotFound(w, r)
	}
}

// page renders one load of body with fresh tokens.
func (s *Server) page(w http.ResponseWriter, scenario string, cur served) {
	s.mu.Lock()
	id := len(s.loads)
	s.loads = append(s.loads, &loaded{key: cur.key})
	s.mu.Unlock()
	title := s.cases[scenario].Title
	l := Render(title, cur.body, newToken, func(n int) string { return fmt.Sprintf("/f/%d/%d", id, n) })
	s.mu.Lock()
	s.loads[id].load = l
	for t, ctl := range l.Tokens {
		s.tokens[t] = hit{key: cur.key, ctl: ctl}
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write([]byte(l.Main))
}

// PlaywrightKey is what a Playwright locator's loads are counted under.
func PlaywrightKey(locator, scenario, variant string) string {
	return "pw/" + locator + "/" + scenario + "/" + variant
}
