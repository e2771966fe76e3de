package driver

import (
	"context"
	"fmt"
	"strings"

	"github.com/waymark-dev/waymark/calls"
)

// Problems returns the console errors and failed requests of the
// session's pages (its page log, pagelog.go), oldest first, and forgets
// every message and request kept when Clear is set.
func (s *Session) Problems(ctx context.Context, req calls.ProblemsRequest) (reply *calls.Problems, err error) {
	defer s.masked(&reply, &err)
	if _, err := s.current(ctx); err != nil {
		return nil, err
	}
	con, err := s.Console(ctx, calls.ConsoleRequest{Errors: true, Clear: req.Clear})
	if err != nil {
		return nil, err
	}
	net, err := s.Network(ctx, calls.NetworkRequest{Failed: true, Clear: req.Clear})
	if err != nil {
		return nil, err
	}
	out := &calls.Problems{Console: []string{}, Requests: []string{}}
	for _, m := range con.Messages {
		text := m.Text
		switch m.Source {
		case "console":
			text = "console.error: " + strings.TrimPrefix(text, "assertion failed: ")
		case "exception":
		default:
			text = strings.TrimSpace(text + " " + m.URL)
		}
		out.Console = append(out.Console, text)
	}
	for _, r := range net.Requests {
		// Canceled and blocked requests were stopped on purpose (a
		// navigation away, the URL policy), not failures of the page.
		// (A refused script answered 404 is canceled after its answer:
		// the status says what went wrong.)
		outcome := r.Failed
		switch {
		case r.Status >= 400:
			outcome = fmt.Sprintf("HTTP %d", r.Status)
		case r.Failed == "canceled" || strings.HasPrefix(r.Failed, "blocked: "):
			continue
		}
		out.Requests = append(out.Requests, fmt.Sprintf("%s %s → %s", r.Method, r.URL, outcome))
	}
	return out, nil
}
