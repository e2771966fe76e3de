package driver

import (
	"context"
	"fmt"
	"strings"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"

	"github.com/waymark-dev/waymark/calls"
)

// A tab keeps the problems its pages report — console errors, uncaught
// exceptions, failed requests — for evidence (waymark test) and for people
// asking why a page misbehaves.

// maxProblems bounds each kind of problem a tab keeps; older ones go first.
const maxProblems = 200

// problems is a tab's record; its fields are guarded by tab.mu.
type problems struct {
	console  []string
	requests []string
	urls     map[network.RequestID]string // requests in flight, to name a failure
}

func (p *problems) add(list *[]string, s string) {
	*list = append(*list, s)
	if len(*list) > maxProblems {
		*list = (*list)[len(*list)-maxProblems:]
	}
}

// onProblem records a problem event; it runs in chromedp's read loop with
// tab.mu held, and returns whether the event was one of its kinds.
func (p *problems) onProblem(ev any) bool {
	if p.urls == nil {
		p.urls = map[network.RequestID]string{}
	}
	switch ev := ev.(type) {
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			msg = firstLine(d.Exception.Description)
		}
		p.add(&p.console, "uncaught: "+msg)
	case *runtime.EventConsoleAPICalled:
		if ev.Type != runtime.ConsoleAPICalledTypeError && ev.Type != runtime.ConsoleAPICalledTypeAssert {
			return true
		}
		var parts []string
		for _, a := range ev.Args {
			switch {
			case a.Description != "":
				parts = append(parts, a.Description)
			case len(a.Value) > 0:
				parts = append(parts, strings.Trim(string(a.Value), `"`))
			}
		}
		p.add(&p.console, "console."+string(ev.Type)+": "+strings.Join(parts, " "))
	case *log.EventEntryAdded:
		if ev.Entry != nil && ev.Entry.Level == log.EntryLevelError && ev.Entry.Source != log.EntrySourceJavascript {
			p.add(&p.console, strings.TrimSpace(ev.Entry.Text+" "+ev.Entry.URL))
		}
	case *network.EventRequestWillBeSent:
		if len(p.urls) < 1000 && ev.Request != nil {
			p.urls[ev.RequestID] = ev.Request.Method + " " + ev.Request.URL
		}
	case *network.EventResponseReceived:
		if ev.Response != nil && ev.Response.Status >= 400 {
			p.add(&p.requests, fmt.Sprintf("%s → HTTP %d", p.urls[ev.RequestID], ev.Response.Status))
		}
	case *network.EventLoadingFinished:
		delete(p.urls, ev.RequestID)
	case *network.EventLoadingFailed:
		if !ev.Canceled && ev.BlockedReason == "" {
			p.add(&p.requests, fmt.Sprintf("%s → %s", p.urls[ev.RequestID], ev.ErrorText))
		}
		delete(p.urls, ev.RequestID)
	default:
		return false
	}
	return true
}

// Problems returns the console errors and failed requests of the
// session's tabs, oldest first, and forgets them when Clear is set.
func (s *Session) Problems(ctx context.Context, req calls.ProblemsRequest) (*calls.Problems, error) {
	if _, err := s.current(ctx); err != nil {
		return nil, err
	}
	s.mu.Lock()
	tabs := append([]*tab(nil), s.tabs...)
	s.mu.Unlock()
	out := &calls.Problems{Console: []string{}, Requests: []string{}}
	for _, t := range tabs {
		t.mu.Lock()
		out.Console = append(out.Console, t.problems.console...)
		out.Requests = append(out.Requests, t.problems.requests...)
		if req.Clear {
			t.problems.console, t.problems.requests = nil, nil
		}
		t.mu.Unlock()
	}
	return out, nil
}
