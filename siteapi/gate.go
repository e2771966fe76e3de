package siteapi

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/discover"
	"github.com/waymark-dev/waymark/secret"
)

// An API call is a read (issue 27). Every request a call makes — the
// recipe's, each redirect hop, each next page, each earlier answer a
// value is read from — passes [caller.gate] before it is sent: it goes
// when it is a GET (or HEAD) or a POST the recipe marks a read
// whose body still has that shape, and its URL has no acting word
// (discover.Acts, the check api learn and sitemap use: /logout,
// ?action=delete). Anything else needs a person's approval like a
// submit: the call stops with needs_approval, nothing sent, carrying a
// calls.Approval whose Sends names the request (and its body's hash); an
// approval given back (CallOptions.Approved) lets exactly that request
// through, once.

// ApprovalAction is the Action of an API call's approval.
const ApprovalAction = "api call"

// gate refuses a request that is not a read, unless it is the one a
// person approved.
func (c *caller) gate(req calls.FetchRequest) error {
	why := c.acting(req)
	if why == "" {
		return nil
	}
	sends := Sends(req)
	if c.opts.Approved != "" && !c.approvedUsed && sends == c.opts.Approved {
		c.approvedUsed = true
		return nil
	}
	page := c.r.Page
	if c.state != nil && c.state.URL != "" {
		page = c.state.URL
	}
	a := calls.Approval{Action: ApprovalAction, URL: page, Control: methodOf(req) + " " + shortURL(req.URL), Why: why, Sends: sends}
	if req.Body != "" {
		a.Form = map[string]string{"body": c.known.Redact(secret.Redact(clip(req.Body, 2000)))}
	}
	data, _ := json.Marshal(a)
	return &calls.Error{Kind: calls.ErrNeedsApproval, Data: data,
		Msg:  a.Line() + ", so it needs approval; nothing was sent",
		Hint: "an API call reads without asking only with GET, or a POST api learn proved a read; review the request, then approve it (" + calls.Cmd("api call --allow-submit") + ", or --approve with the error's data)"}
}

// acting says why a request is not a read, or "" when it is: an
// Approval's Why, a verb phrase whose subject is the request.
func (c *caller) acting(req calls.FetchRequest) string {
	u, err := url.Parse(req.URL)
	if err != nil {
		return "has a URL that does not parse"
	}
	if w := discover.Acts(u); w != "" {
		return fmt.Sprintf("has %q in its URL, a word that acts", w)
	}
	switch m := methodOf(req); m {
	case "GET", "HEAD":
		// A GraphQL mutation sent as a GET (?query=mutation…) acts on a
		// careless server.
		if q := u.Query().Get("query"); q != "" && strings.Contains(q, "{") && !discover.GraphQLReads(q) {
			return "sends a GraphQL operation that is not a query"
		}
		return ""
	case "POST":
		read := c.r.Request.Read
		if read == "" {
			return "is a POST the recipe does not mark a read (api learn marks a GraphQL query or a JSON-RPC read)"
		}
		if got := discover.ReadShape(req.Body); got != read {
			return fmt.Sprintf("is marked a read (%s) by the recipe, but its body is not one", read)
		}
		return ""
	default:
		// QUERY is safe by its draft, but a careless server routes every
		// method to one handler: only what is proved a read goes.
		return "is a " + m + ", which may change what the site holds"
	}
}

// Sends names a request for an approval: its method and URL, and its
// body's hash, so an approval is of exactly these values.
func Sends(req calls.FetchRequest) string {
	s := methodOf(req) + " " + req.URL
	if req.Body != "" {
		h := sha256.Sum256([]byte(req.Body))
		s += " (body sha256:" + hex.EncodeToString(h[:8]) + ")"
	}
	return s
}

func methodOf(req calls.FetchRequest) string {
	if m := strings.ToUpper(strings.TrimSpace(req.Method)); m != "" {
		return m
	}
	return "GET"
}

// shortURL is a URL without its query, for messages.
func shortURL(raw string) string {
	if i := strings.IndexAny(raw, "?#"); i >= 0 {
		return raw[:i]
	}
	return raw
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
