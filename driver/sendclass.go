package driver

import (
	"encoding/json"
	"net"
	"net/url"
	"slices"
	"strings"

	"golang.org/x/net/publicsuffix"

	"github.com/waymark-dev/waymark/discover"
	"github.com/waymark-dev/waymark/secret"
)

// Commit or chatter (issue 27, item 7). Real pages send on almost every
// click: an analytics beacon, a telemetry POST, a GraphQL query. Asking a
// person about each makes the gate one people switch off, so every send a
// watched step makes is put to classifySend, the one place that tells a
// commit from chatter; every gate path (sendgate.go's holdSend, which the
// tab guard, the out-of-process frames and new windows call, and so any
// worker path that asks it) decides by it and nothing else.
//
// A commit needs approval: a form submission or a navigation with a
// non-GET method; a DELETE; a request whose path (or, on the page's own
// site, whose query) or control says a committing word (commitWords, the
// list the check before pressing reads controls by); a request that
// carries a value typed in this session; and any non-GET to the page's
// own site that is not plainly chatter. Chatter goes, and is listed in
// the step's result: a beacon, a POST to an analytics path or to another
// site, and a read-shaped request (a GraphQL document of queries only, a
// JSON-RPC call whose method reads). A commit dressed as chatter stays a
// commit: the words and the typed values are looked at before the shape.

// sendFacts is what the gate knows of one request a watched step makes.
type sendFacts struct {
	method string // upper case
	url    string
	page   string // the URL of the tab's page
	// kind is the request's resource type, lower case ("xhr", "fetch",
	// "ping" for a beacon, "document").
	kind string
	// submission says the request is a form submission the page asked for.
	submission bool
	// body is the request's body; unread says it has one the browser did
	// not give (too long), which may carry anything.
	body   string
	unread bool
	// control is the words of the control the step pressed, or "".
	control string
	// typed are the values typed into the session's fields.
	typed *secret.Set
}

// sendVerdict is what classifySend decided.
type sendVerdict struct {
	// commit says the send needs approval; otherwise it is chatter and
	// goes.
	commit bool
	// why says what made it so, for the step's result: "its path says
	// \"order\"", "a beacon", "a GraphQL query".
	why string
}

// classifySend tells a commit from chatter. It is only asked about sends:
// requests that are not GET, HEAD or OPTIONS, and form submissions.
func classifySend(f sendFacts) sendVerdict {
	commit := func(why string) sendVerdict { return sendVerdict{commit: true, why: why} }
	chatter := func(why string) sendVerdict { return sendVerdict{why: why} }
	u, err := url.Parse(f.url)
	if err != nil {
		return commit("its URL does not parse")
	}
	same := sameSite(u, f.page)
	switch {
	case f.submission:
		return commit("a form submission")
	case f.kind == "document":
		return commit("a navigation with " + f.method)
	case f.method == "DELETE":
		return commit("a DELETE")
	}
	// The words of the path say what it does, on any site; the query's
	// too on the page's own site (another site's analytics name events
	// freely in theirs).
	words := u.EscapedPath()
	if same {
		words += " " + u.RawQuery
	}
	if w := commitWordIn(words); w != "" {
		return commit("its URL says " + quoteWord(w))
	}
	if w := commitWordIn(actionIn(f.body)); w != "" {
		return commit("its body asks to " + quoteWord(w))
	}
	if w := commitWordIn(f.control); w != "" && same {
		return commit("its control says " + quoteWord(w))
	}
	if f.unread {
		return commit("its body was too long to read")
	}
	// A read carries what was typed as a GET would (a search): it is
	// looked at before the typed values.
	switch read, api := readShaped(f.body); {
	case read != "":
		return chatter(read)
	case api != "":
		return commit(api)
	}
	if name, ok := f.typed.Contains(u.RequestURI() + "\n" + f.body); ok {
		return commit("it carries what was typed into " + name)
	}
	switch {
	case f.kind == "ping":
		return chatter("a beacon")
	case analyticsPath(u):
		return chatter("a POST to an analytics path")
	case !same:
		return chatter("a POST to another site")
	}
	return commit("a " + f.method + " to the page's own site")
}

// sameSite says whether u is on the site of the page at page: the same
// registrable domain (eTLD+1), or for an address or a name without one
// (127.0.0.1, localhost), the same host.
func sameSite(u *url.URL, page string) bool {
	p, err := url.Parse(page)
	if err != nil {
		return false
	}
	a, b := u.Hostname(), p.Hostname()
	if strings.EqualFold(a, b) {
		return true
	}
	if net.ParseIP(a) != nil || net.ParseIP(b) != nil {
		return false
	}
	sa, errA := publicsuffix.EffectiveTLDPlusOne(strings.ToLower(a))
	sb, errB := publicsuffix.EffectiveTLDPlusOne(strings.ToLower(b))
	return errA == nil && errB == nil && sa == sb
}

// commitWordIn returns the committing word (commitWords) text says, or
// "". Text is split into words on anything not a letter or digit and at
// a lower-to-upper change ("placeOrder"), after URL-unescaping; a word
// counts in its other forms too ("orders", "payments", "deletion").
func commitWordIn(text string) string {
	if text == "" {
		return ""
	}
	if u, err := url.QueryUnescape(text); err == nil {
		text = u
	}
	ws := discover.SplitWords(text)
	lines := []string{" " + strings.Join(ws, " ") + " "}
	for _, suffix := range []string{"s", "es", "ed", "ing", "ment", "ments", "ion", "ions", "ation", "ations", "al"} {
		var stems, stemsE []string
		for _, w := range ws {
			if b, ok := strings.CutSuffix(w, suffix); ok && len(b) >= 3 {
				stems, stemsE = append(stems, b), append(stemsE, b+"e")
				continue
			}
			stems, stemsE = append(stems, w), append(stemsE, w)
		}
		lines = append(lines, " "+strings.Join(stems, " ")+" ", " "+strings.Join(stemsE, " ")+" ")
	}
	for _, c := range commitWords {
		c = " " + c + " "
		for _, line := range lines {
			if strings.Contains(line, c) {
				return strings.TrimSpace(c)
			}
		}
	}
	return ""
}

// actionKeys are the names a body gives the thing it asks the server to
// do ("action=delete", {"op": "transfer"}).
var actionKeys = map[string]bool{"action": true, "act": true, "op": true, "operation": true, "cmd": true, "command": true,
	"do": true, "intent": true, "verb": true, "task": true}

// actionIn returns the values of a body's action-like fields (urlencoded,
// or a JSON object's top level), joined; "" when it has none. A body's
// other words (an analytics event's name, "remove_from_cart") say what
// happened, not what to do.
func actionIn(body string) string {
	b := strings.TrimSpace(body)
	var vals []string
	if strings.HasPrefix(b, "{") {
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(b), &m) == nil {
			for k, raw := range m {
				var v string
				if actionKeys[strings.ToLower(k)] && json.Unmarshal(raw, &v) == nil {
					vals = append(vals, v)
				}
			}
		}
	} else if q, err := url.ParseQuery(b); err == nil {
		for k, vs := range q {
			if actionKeys[strings.ToLower(k)] {
				vals = append(vals, vs...)
			}
		}
	}
	return strings.Join(vals, " ")
}

func quoteWord(w string) string { return `"` + w + `"` }

// analyticsWords are the path words of the endpoints that count, log and
// report: Google Analytics' /collect, Segment's /track, Sentry's
// /envelope, a site's own /telemetry or /hit.
var analyticsWords = map[string]bool{
	"collect": true, "analytics": true, "telemetry": true, "track": true, "tracking": true, "tracker": true,
	"beacon": true, "hit": true, "hits": true, "event": true, "events": true, "metrics": true, "stats": true,
	"rum": true, "pixel": true, "envelope": true, "sentry": true, "vitals": true, "pageview": true,
	"impression": true, "impressions": true, "log": true, "logs": true, "logging": true, "ping": true,
	"monitoring": true, "errors": true, "insights": true, "measure": true,
}

// analyticsPath says whether u's path is an analytics endpoint's. A path
// that also acts by discover's words ("/api/events/42/cancel",
// "/logs/purge") is not: the analytics word names what it acts on.
func analyticsPath(u *url.URL) bool {
	if discover.Acts(u) != "" {
		return false
	}
	p, err := url.PathUnescape(u.EscapedPath())
	if err != nil {
		p = u.EscapedPath()
	}
	for _, w := range discover.SplitWords(p) {
		if analyticsWords[w] {
			return true
		}
	}
	return false
}

// readShaped says what read a request's body is ("a GraphQL query", "a
// JSON-RPC read"); or, for a GraphQL or JSON-RPC body that does not
// read, what it is instead ("a GraphQL mutation"), which is a commit on
// any site. Both are "" for any other body.
func readShaped(body string) (read, write string) {
	b := strings.TrimSpace(body)
	if b == "" {
		return "", ""
	}
	if b[0] == '[' {
		// A batch: a read only when every call in it reads.
		var batch []json.RawMessage
		if json.Unmarshal([]byte(b), &batch) != nil || len(batch) == 0 {
			return "", ""
		}
		for _, one := range batch {
			r, w := readShaped(string(one))
			if r == "" {
				if w == "" {
					w = "a batch with a call that is not a read"
				}
				return "", w
			}
			read = r
		}
		return read, ""
	}
	var m map[string]json.RawMessage
	if b[0] != '{' || json.Unmarshal([]byte(b), &m) != nil {
		return "", ""
	}
	if raw, ok := m["query"]; ok && onlyKeys(m, "query", "operationName", "variables", "extensions") {
		var doc string
		if json.Unmarshal(raw, &doc) != nil || !looksGraphQL(doc) {
			return "", "" // a search's {"query": "shoes"}: judged as any body
		}
		if !discover.GraphQLReads(doc) {
			return "", "a GraphQL operation that is not a query"
		}
		return "a GraphQL query", ""
	}
	if _, ok := m["jsonrpc"]; ok && onlyKeys(m, "jsonrpc", "method", "params", "id") {
		var method string
		if json.Unmarshal(m["method"], &method) != nil || !discover.MethodReads(method) || commitWordIn(method) != "" {
			return "", "a JSON-RPC call that is not a read"
		}
		return "a JSON-RPC read", ""
	}
	return "", ""
}

// onlyKeys says whether m has no key but these: a read's body carries
// nothing beside the call (no form's values smuggled next to a query).
func onlyKeys(m map[string]json.RawMessage, keys ...string) bool {
	for k := range m {
		if !slices.Contains(keys, k) {
			return false
		}
	}
	return true
}

// looksGraphQL says whether doc begins as a GraphQL document does.
func looksGraphQL(doc string) bool {
	d := strings.TrimLeft(doc, " \t\r\n,\ufeff")
	for _, p := range []string{"{", "#", "query", "mutation", "subscription", "fragment"} {
		if strings.HasPrefix(d, p) {
			return true
		}
	}
	return false
}
