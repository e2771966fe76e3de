package calls

import "encoding/json"

// MethodAPICall calls a site's API by a recipe (package siteapi): the
// request made with fetch() from the isolated world of a tab on the
// recipe's site, each source read fresh, each hop checked by the URL
// policy. A failure's Data says its kind ({"api_failure":"auth"}: auth,
// changed, rate, network, blocked-url; siteapi.KindOf reads it).
const MethodAPICall = "api_call"

// APICallRequest is one call by an API recipe.
type APICallRequest struct {
	// Recipe is the recipe file's JSON (format waymark.api/1).
	Recipe json.RawMessage `json:"recipe"`
	// Vars are the values of the recipe's variables.
	Vars map[string]string `json:"vars,omitempty"`
	// Pages is how many pages to read; zero means every page (up to 100).
	Pages int `json:"pages,omitempty"`
	// Fresh reads the list even when the recipe's validators say it has
	// not changed.
	Fresh bool `json:"fresh,omitempty"`
	// TimeoutMS bounds the call; zero means 2 minutes.
	TimeoutMS int `json:"timeout_ms,omitempty"`
	// Approve carries the Approval a needs_approval error of an earlier
	// call gave: an API call reads (GET, or a POST learned to be a read)
	// and anything else it would send stops for a person's approval; the
	// approved request, and only it, then goes once.
	Approve *Approval `json:"approve,omitempty"`
}

// APICallResult is what the call read: siteapi.Call's result, which the
// daemon, MCP's api_call and replay's api steps pass on as it is.
type APICallResult struct {
	Rows []map[string]any `json:"rows"`
	// Unchanged: the site answered 304 to the recipe's validators: the
	// list has not changed since; no rows.
	Unchanged bool `json:"unchanged,omitempty"`
	Pages     int  `json:"pages"`
	// Requests and Bytes count what was sent and read (every hop and
	// retry; bodies only).
	Requests int `json:"requests"`
	Bytes    int `json:"bytes"`
	// Ended says why the reading stopped: "last page", "pages" (the
	// number asked for), "limit", "unchanged".
	Ended string `json:"ended"`
	// ETag and LastModified are the first page's validators (on an
	// unchanged list, the recipe's), for the recipe to keep and send
	// next time (siteapi.Recipe.Validators).
	ETag         string `json:"etag,omitempty"`
	LastModified string `json:"last_modified,omitempty"`
	// WaitedMS is the time spent backing off a 429.
	WaitedMS int64 `json:"waited_ms,omitempty"`
}
