package siteapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/capture"
	"github.com/waymark-dev/waymark/discover"
	"github.com/waymark-dev/waymark/secret"
)

// Format names the version of an API recipe file.
const Format = "waymark.api/1"

// Recipe is a site's JSON call behind a list: the request, where each of
// its values comes from, where the rows and their fields are in the
// answer, how the next page is asked for, and the last call's validators.
type Recipe struct {
	Format string `json:"format"`
	// Site is the origin the call is made from and to (scheme://host:port).
	Site string `json:"site"`
	// Page is the page the recipe was learned on, opened when no tab is
	// on the site.
	Page    string  `json:"page"`
	Request Request `json:"request"`
	// Rows is the JSON pointer of the list in the answer ("" is the
	// answer itself).
	Rows string `json:"rows"`
	// Fields map each row field to its JSON pointer inside one item.
	Fields     []Field     `json:"fields"`
	Pagination *Pagination `json:"pagination,omitempty"`
	// Schema is the JSON Schema of one row; a call checks each row by it.
	Schema json.RawMessage `json:"schema,omitempty"`
	// Validators are the first page's ETag and Last-Modified of the last
	// call, sent back so an unchanged list costs one request.
	Validators *Validators `json:"validators,omitempty"`
	Learned    *Learned    `json:"learned,omitempty"`
	// Relogin is a sign-in routine (waymark.routine/1), by its path
	// relative to the recipe's file (a routine's own, for an api step):
	// a call the site refuses as auth runs it once in the same session
	// and calls again ([Relogin]). Empty: an auth failure stops the call.
	Relogin string `json:"relogin,omitempty"`
}

// Request is the call: its URL without the query, and each query
// parameter, header and JSON body field with its source.
type Request struct {
	Method  string  `json:"method"`
	URL     string  `json:"url"`
	Query   []Param `json:"query,omitempty"`
	Headers []Param `json:"headers,omitempty"`
	// Body holds the fields of a JSON object body, each named by its
	// JSON pointer ("/filter/q").
	Body []Param `json:"body,omitempty"`
	// Read is the read shape learning proved a POST is
	// (discover.ReadGraphQL, discover.ReadJSONRPC), or "". A call checks
	// the body it builds has that shape, every time: a recipe edited to
	// claim a read over a mutation is refused. A POST without it, a PUT
	// and a PATCH need a person's approval (gate.go).
	Read string `json:"read,omitempty"`
}

// Param is one value of the request, named, with its source.
type Param struct {
	Name string `json:"name"`
	Source
}

// Source says where a value is read at call time. From is one of the
// From constants; the other fields are read as it says.
type Source struct {
	From string `json:"from"`
	// Value is the value of a constant (never a secret).
	Value string `json:"value,omitempty"`
	// Key names the variable, meta tag, storage key, cookie or
	// script (its id: __NEXT_DATA__).
	Key string `json:"key,omitempty"`
	// Path is the JSON pointer of the value inside a script's, a stored
	// value's or an earlier response's JSON.
	Path string `json:"path,omitempty"`
	// URL is the GET whose answer holds the value (From "response").
	URL string `json:"url,omitempty"`
	// Prefix is written before the value ("Bearer ").
	Prefix string `json:"prefix,omitempty"`
}

// Sources of a value.
const (
	FromConst    = "const"
	FromVar      = "var"
	FromMeta     = "meta"
	FromLocal    = "localStorage"
	FromSession  = "sessionStorage"
	FromCookie   = "cookie"
	FromScript   = "script"
	FromResponse = "response"
)

// Field is one row field and its JSON pointer inside an item.
type Field struct {
	Name string `json:"name"`
	Path string `json:"path"`
	// Divide is what the answer's number is divided by to read as the
	// page shows it: 100 for an amount the answer gives in minor units
	// (cents: 4264 for "$42.64"). Zero leaves the value as it is.
	Divide float64 `json:"divide,omitempty"`
}

// Pagination kinds.
const (
	PageNumber = "page"   // Param counts pages from Start by Step
	PageOffset = "offset" // Param counts items from Start
	PageCursor = "cursor" // Param carries the value at Next in the answer
	// PageInBody is Pagination.In for a page, offset or cursor carried in
	// a field of the JSON body.
	PageInBody = "body"
	PageNext   = "next" // the answer holds the next page's URL at Next
	// PagePath: Param is the path with {n} where the page's number goes
	// (/lamps-{n}.json), counted from Start by Step; the first page is
	// the request's own URL, numbered or not.
	PagePath = "path"
)

// Pagination is how the next page is asked for.
type Pagination struct {
	Kind  string `json:"kind"`
	Param string `json:"param,omitempty"`
	// In is where Param is: "" for the query, "body" for a field of the
	// JSON body, named by its JSON pointer (a GraphQL query's
	// "/variables/after").
	In    string `json:"in,omitempty"`
	Start int    `json:"start,omitempty"`
	Step  int    `json:"step,omitempty"`
	Next  string `json:"next,omitempty"`
}

// Validators are an answer's ETag and Last-Modified.
type Validators struct {
	ETag         string `json:"etag,omitempty"`
	LastModified string `json:"last_modified,omitempty"`
}

// Learned says where a recipe came from.
type Learned struct {
	At       time.Time `json:"at"`
	Exchange string    `json:"exchange,omitempty"` // the capture's exchange id
	Rows     int       `json:"rows"`               // rows of the browser's the answer held
	Verified bool      `json:"verified"`           // a direct call returned the browser's rows
	// Sender is the code that sent the call when it was learned, named
	// by the site's source map: the file, line and column it was
	// written at and the function around it.
	Sender string `json:"sender,omitempty"`
}

// Load reads a recipe file ([Parse]).
func Load(path string) (*Recipe, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, calls.Errorf(calls.ErrBadInput, "give the path of a recipe "+calls.Cmd("api learn")+" wrote", "%v", err)
	}
	r, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// Parse reads a recipe and checks it ([Recipe.Validate]).
func Parse(b []byte) (*Recipe, error) {
	var r Recipe
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, calls.Errorf(calls.ErrBadInput, "a recipe is the JSON "+calls.Cmd("api learn")+" writes (schema: siteapi/schema/api.schema.json)", "not an API recipe: %v", err)
	}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return &r, nil
}

// Marshal writes the recipe as indented JSON, after checking it.
func (r *Recipe) Marshal() ([]byte, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Validate checks a recipe can be called: its format, that its page and
// request are on its site (a recipe calls its own site; a redirect
// elsewhere is checked hop by hop), that each source is known, and that
// it holds no secret (a constant where a token, cookie or key goes, a
// value that looks like one, or a redaction marker).
func (r *Recipe) Validate() error {
	bad := func(format string, args ...any) error {
		return calls.Errorf(calls.ErrBadInput, "learn the recipe again with "+calls.Cmd("api learn")+", or fix the field named", format, args...)
	}
	if r.Format != Format {
		return bad("format %q, want %q", r.Format, Format)
	}
	site, err := originOf(r.Site)
	if err != nil || site != r.Site {
		return bad("site %q is not an origin (scheme://host[:port])", r.Site)
	}
	for what, u := range map[string]string{"page": r.Page, "request.url": r.Request.URL} {
		o, err := originOf(u)
		if err != nil {
			return bad("%s %q is not an http(s) URL", what, u)
		}
		if o != r.Site {
			return newError(KindBlockedURL, "a recipe calls only its own site: learn it on the site it calls",
				"the recipe's %s %s is not on its site %s", what, u, r.Site)
		}
	}
	switch strings.ToUpper(r.Request.Method) {
	case "GET", "POST", "PUT", "PATCH", "QUERY":
	default:
		return bad("request.method %q: use GET or POST", r.Request.Method)
	}
	switch r.Request.Read {
	case "", discover.ReadGraphQL, discover.ReadJSONRPC:
	default:
		return bad("request.read %q: use %s or %s, or leave it out", r.Request.Read, discover.ReadGraphQL, discover.ReadJSONRPC)
	}
	if r.Relogin != "" && (strings.Contains(r.Relogin, "://") || strings.ContainsAny(r.Relogin, "\x00\n")) {
		return bad("relogin %q is not a file's path: name the sign-in routine's file, relative to the recipe (signin.json)", r.Relogin)
	}
	if len(r.Fields) == 0 {
		return bad("no fields: a recipe maps at least one row field")
	}
	for _, f := range r.Fields {
		if f.Name == "" || !validPointer(f.Path) {
			return bad("field %q has the bad path %q (a JSON pointer: /name)", f.Name, f.Path)
		}
		if f.Divide < 0 || math.IsNaN(f.Divide) || math.IsInf(f.Divide, 0) {
			return bad("field %q divides by %v: give a positive number (100 for minor units) or leave divide out", f.Name, f.Divide)
		}
	}
	if !validPointer(r.Rows) {
		return bad("rows %q is not a JSON pointer", r.Rows)
	}
	if p := r.Pagination; p != nil {
		switch {
		case p.In != "" && p.In != PageInBody:
			return bad("pagination in %q: use body, or leave it out for the query", p.In)
		case p.In == PageInBody && (p.Kind == PageNext || p.Kind == PagePath):
			return bad("pagination %s has no param in the body", p.Kind)
		case p.In == PageInBody && (!validPointer(p.Param) || p.Param == ""):
			return bad("pagination in the body needs param: the body field's JSON pointer (/variables/after)")
		}
		switch p.Kind {
		case PageNumber, PageOffset:
			if p.Param == "" {
				return bad("pagination %s needs param", p.Kind)
			}
		case PageCursor:
			if p.Param == "" || !validPointer(p.Next) || p.Next == "" {
				return bad("pagination cursor needs param and next (a JSON pointer)")
			}
		case PageNext:
			if !validPointer(p.Next) || p.Next == "" {
				return bad("pagination next needs next (a JSON pointer)")
			}
		case PagePath:
			if !strings.HasPrefix(p.Param, "/") || strings.Count(p.Param, "{n}") != 1 || strings.ContainsAny(p.Param, "?#") {
				return bad("pagination path needs param: the path with {n} where the page's number goes (/lamps-{n}.json)")
			}
		default:
			return bad("pagination kind %q: use page, offset, cursor, next or path", p.Kind)
		}
	}
	for part, ps := range map[string][]Param{"query": r.Request.Query, "headers": r.Request.Headers, "body": r.Request.Body} {
		for _, p := range ps {
			if err := p.check(part); err != nil {
				return err
			}
		}
	}
	return nil
}

// check refuses an unknown source, and a secret held in the recipe.
func (p Param) check(part string) error {
	where := fmt.Sprintf("request.%s %q", part, p.Name)
	switch p.From {
	case FromConst:
		if strings.Contains(p.Value, capture.MarkerPrefix) || secret.LooksSecret(p.Value) || (secret.Name(p.Name) && p.Value != "") {
			return calls.Errorf(calls.ErrBadInput, "a recipe names where a secret is read (localStorage, cookie, meta, var), never the secret: learn it again, or set from and key by hand",
				"%s holds a secret; no recipe holds a secret", where)
		}
	case FromVar, FromMeta, FromLocal, FromSession, FromCookie, FromScript:
		if p.Key == "" {
			return calls.Errorf(calls.ErrBadInput, "name what is read with key", "%s is read from %s with no key", where, p.From)
		}
	case FromResponse:
		if _, err := originOf(p.URL); err != nil {
			return calls.Errorf(calls.ErrBadInput, "give the URL of the earlier call", "%s is read from a response with no URL", where)
		}
	default:
		return calls.Errorf(calls.ErrBadInput, "use const, var, meta, localStorage, sessionStorage, cookie, script or response", "%s: unknown source %q", where, p.From)
	}
	if p.Path != "" && !validPointer(p.Path) {
		return calls.Errorf(calls.ErrBadInput, "a path is a JSON pointer: /props/buildId", "%s: bad path %q", where, p.Path)
	}
	if p.From != FromConst && p.Value != "" {
		return calls.Errorf(calls.ErrBadInput, "a value read at call time holds no value in the recipe", "%s: a %s source with a value", where, p.From)
	}
	return nil
}

// originOf returns the origin of an http(s) URL.
func originOf(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("not an http(s) URL: %q", raw)
	}
	return u.Scheme + "://" + strings.ToLower(u.Host), nil
}
