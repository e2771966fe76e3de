package mcp

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/calls"
)

// The console and network tools read what the session's pages logged and
// requested (the driver keeps it; nothing is added to the page). They
// change nothing, so they say so: a client may call them without asking.

type (
	consoleIn struct {
		Errors bool `json:"errors,omitempty" jsonschema:"only errors"`
	}
	networkIn struct {
		Failed bool `json:"failed,omitempty" jsonschema:"only failures, status 400+"`
	}
)

// lastN bounds a reply: the driver keeps hundreds of messages and
// requests, which would fill a model's context; the last ones are what an
// agent asks about.
const lastN = 50

// registerEvidence adds the two tools; their annotations (read-only) are
// in annotations.go's table, as every tool's.
func (t *tools) registerEvidence(s *sdk.Server) {
	add(s, "console", "Last console messages.", func(ctx context.Context, _ *sdk.CallToolRequest, in consoleIn) (string, calls.ConsoleLog, error) {
		log, err := t.s.Console(ctx, calls.ConsoleRequest{Errors: in.Errors, Last: lastN})
		if err != nil {
			return "", calls.ConsoleLog{}, err
		}
		if log.Messages == nil {
			log.Messages = []calls.ConsoleMessage{}
		}
		return consoleText(log), *log, nil
	})
	add(s, "network", "Last requests with status.", func(ctx context.Context, _ *sdk.CallToolRequest, in networkIn) (string, calls.NetworkLog, error) {
		log, err := t.s.Network(ctx, calls.NetworkRequest{Failed: in.Failed, Last: lastN})
		if err != nil {
			return "", calls.NetworkLog{}, err
		}
		if log.Requests == nil {
			log.Requests = []calls.Request{}
		}
		return networkText(log), *log, nil
	})
}

// consoleText is one line a message: level, source, text, where.
func consoleText(log *calls.ConsoleLog) string {
	if len(log.Messages) == 0 {
		return "no console messages"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d console messages (%d errors)", len(log.Messages), log.Errors)
	for _, m := range log.Messages {
		fmt.Fprintf(&b, "\n%s %s: %s", m.Level, m.Source, m.Text)
		if m.URL != "" {
			fmt.Fprintf(&b, " (%s", m.URL)
			if m.Line > 0 {
				fmt.Fprintf(&b, ":%d", m.Line)
			}
			b.WriteString(")")
		}
	}
	return b.String()
}

// networkText is one line a request: method, outcome, type, URL, time.
func networkText(log *calls.NetworkLog) string {
	if len(log.Requests) == 0 {
		return "no requests"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d requests (%d failed)", len(log.Requests), log.Failed)
	for _, r := range log.Requests {
		outcome := fmt.Sprint(r.Status)
		switch {
		case r.Status == 0 && r.Failed != "":
			outcome = r.Failed
		case r.Status == 0 && r.Pending:
			outcome = "pending"
		}
		fmt.Fprintf(&b, "\n%s %s %s %s", r.Method, outcome, r.Type, r.URL)
		if !r.Pending {
			fmt.Fprintf(&b, " (%d ms)", r.DurationMS)
		}
	}
	return b.String()
}
