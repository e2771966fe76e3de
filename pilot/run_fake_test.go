package pilot_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/pilot"
)

// site is a page held in memory for the agent loop: a few pages, each an
// outline, and what each act does. It is safe for concurrent use, since
// the loop may abandon a call that then finishes on its own goroutine.
type site struct {
	mu     sync.Mutex
	pages  map[string]*fakePage // by URL
	cur    string               // the current URL
	values map[string]string    // ref → the value typed into it
	count  int                  // how often "Add" was pressed
	// downs is how far the page is scrolled down, in turns, up to 3 (the
	// bottom: a further scroll down changes nothing).
	downs  int
	acts   []calls.ActRequest
	opened []string
	shots  []calls.ScreenshotRequest
	snaps  int // how many looks were taken
	// block, when set, makes Act wait for ctx (or for release when
	// ignoreCtx is set: a driver that does not notice cancellation).
	block     bool
	ignoreCtx bool
	release   chan struct{}
	started   chan struct{} // closed when a blocking Act starts
}

type fakePage struct {
	title string
	lines func(s *site) []string
	// notices are what stands in the way on the page, as the driver
	// recognises them; nil means nothing.
	notices func(s *site) []calls.Notice
	// on maps "op ref" to what it does; it returns the URL to go to, or "".
	on map[string]func(s *site) string
}

var _ pilot.Driver = (*site)(nil)

const (
	homeURL    = "https://shop.test/"
	loginURL   = "https://shop.test/login"
	accountURL = "https://shop.test/account"
	addURL     = "https://shop.test/add"
)

func newSite() *site {
	s := &site{cur: "about:blank", values: map[string]string{}, release: make(chan struct{}), started: make(chan struct{})}
	s.pages = map[string]*fakePage{
		"about:blank": {title: "", lines: func(*site) []string { return nil }},
		homeURL: {title: "Shop", lines: func(*site) []string {
			return []string{`- heading "Shop" [level=1]`, `- link "Sign in" [ref=e1]`}
		}, on: map[string]func(*site) string{"click e1": func(*site) string { return loginURL }}},
		loginURL: {title: "Sign in", notices: func(*site) []calls.Notice {
			return []calls.Notice{{Kind: "sign-in", Message: "a sign-in form", Detail: map[string]string{"username": "e3", "password": "e4", "submit": "e5"}}}
		}, lines: func(s *site) []string {
			out := []string{`- heading "Sign in" [level=1]`}
			if s.values["error"] != "" {
				out = append(out, `- alert "Enter your email and password."`)
			}
			return append(out, field(s, `textbox "Email" [ref=e3]`, "e3"), field(s, `textbox "Password" [ref=e4]`, "e4"), `- button "Sign in" [ref=e5]`)
		}, on: map[string]func(*site) string{"click e5": func(s *site) string {
			if s.values["e3"] == "" || s.values["e4"] == "" {
				s.values["error"] = "1"
				return ""
			}
			return accountURL
		}}},
		accountURL: {title: "Account", lines: func(*site) []string {
			return []string{`- heading "Welcome, Ann" [level=1]`, `- button "Sign out" [ref=e9]`}
		}},
		addURL: {title: "Add", lines: func(s *site) []string {
			out := []string{`- button "Add" [ref=e2]`}
			if s.count > 0 {
				out = append(out, fmt.Sprintf(`- text: added %d`, s.count))
			}
			if d := s.values["scrolled"]; d != "" {
				out = append(out, fmt.Sprintf("- text: scrolled %s (%d down)", d, s.downs))
			}
			return out
		}, on: map[string]func(*site) string{"click e2": func(s *site) string { s.count++; return "" }}},
	}
	return s
}

// field is an outline line for a text field, with its value when set.
func field(s *site, line, ref string) string {
	if v := s.values[ref]; v != "" {
		return fmt.Sprintf("- %s value=%q", line, v)
	}
	return "- " + line
}

func (s *site) outline() string {
	p := s.pages[s.cur]
	return fmt.Sprintf("[page] %s\n%s", calls.PageName(s.cur, p.title), strings.Join(p.lines(s), "\n"))
}

func (s *site) Open(_ context.Context, r calls.OpenRequest) (*calls.PageInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.opened = append(s.opened, r.URL)
	p, ok := s.pages[r.URL]
	if !ok {
		return nil, &calls.Error{Kind: calls.ErrNavigation, Msg: "no such page " + r.URL}
	}
	s.cur = r.URL
	return &calls.PageInfo{URL: r.URL, Title: p.title, Status: 200}, nil
}

func (s *site) Snapshot(context.Context, calls.SnapshotRequest) (*calls.Snapshot, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.snaps++
	p := s.pages[s.cur]
	snap := &calls.Snapshot{URL: s.cur, Title: p.title, Text: s.outline()}
	if p.notices != nil {
		snap.Notices = p.notices(s)
	}
	return snap, nil
}

func (s *site) Act(ctx context.Context, r calls.ActRequest) (*calls.Outcome, error) {
	s.mu.Lock()
	block, ignore := s.block, s.ignoreCtx
	s.mu.Unlock()
	if block {
		close(s.started)
		if ignore {
			<-s.release
		} else {
			<-ctx.Done()
			return nil, ctx.Err()
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.acts = append(s.acts, r)
	ref := strings.TrimPrefix(r.Target, "@")
	if (ref != "" || r.Kind != calls.ActScroll) && !strings.Contains(s.outline(), "[ref="+ref+"]") {
		return nil, &calls.Error{Kind: calls.ErrStaleRef, Msg: "no element [ref=" + ref + "] on the page now"}
	}
	switch r.Kind {
	case calls.ActFill, calls.ActType:
		s.values[ref] = r.Value
	case calls.ActScroll:
		s.values["scrolled"] = r.Direction
		if r.Direction == "down" {
			s.downs = min(s.downs+1, 3)
		}
	case calls.ActClick:
		if do := s.pages[s.cur].on["click "+ref]; do != nil {
			if next := do(s); next != "" {
				s.cur = next
			}
		}
	}
	return &calls.Outcome{URL: s.cur, Title: s.pages[s.cur].title}, nil
}

func (s *site) Get(_ context.Context, r calls.GetRequest) (*calls.GetResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch r.What {
	case "url":
		return &calls.GetResult{Value: s.cur}, nil
	case "value":
		return &calls.GetResult{Value: s.values[strings.TrimPrefix(r.Target, "@")]}, nil
	}
	return &calls.GetResult{}, nil
}

func (s *site) Screenshot(_ context.Context, r calls.ScreenshotRequest) (*calls.Image, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.shots = append(s.shots, r)
	return &calls.Image{Data: []byte("\x89PNG")}, nil
}

var lineRole = regexp.MustCompile(`^- (\w+) "([^"]*)"`)

// Locate derives the element's locator from its line, as the targets
// package does from the live page: role and name.
func (s *site) Locate(_ context.Context, r calls.LocateRequest) (*calls.Evidence, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ref := strings.TrimPrefix(r.Target, "@")
	for _, l := range strings.Split(s.outline(), "\n") {
		if !strings.Contains(l, "[ref="+ref+"]") {
			continue
		}
		m := lineRole.FindStringSubmatch(l)
		if m == nil {
			break
		}
		loc := fmt.Sprintf("role=%s[name=%q]", m[1], m[2])
		return &calls.Evidence{Ref: ref, Chosen: loc,
			Candidates:  []calls.Candidate{{Kind: calls.KindRole, Value: loc, Matches: 1}, {Kind: calls.KindCSS, Value: "css=#" + strings.ReplaceAll(strings.ToLower(m[2]), " ", "-"), Matches: 1}},
			Fingerprint: calls.Fingerprint{Role: m[1], Name: m[2], Tag: "input"}}, nil
	}
	return nil, &calls.Error{Kind: calls.ErrUnknownRef, Msg: "unknown ref " + ref}
}

func (s *site) Find(context.Context, calls.FindRequest) (*calls.Resolution, error) {
	return &calls.Resolution{Status: calls.Found}, nil
}

func (s *site) actCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.acts)
}
