package siteapi

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/secret"
)

// Session is what a call needs of a browser session: an in-tab fetch, a
// script in the isolated world (to read the sources), and a way to open
// the recipe's page. calls.Session satisfies it.
type Session interface {
	Fetch(ctx context.Context, req calls.FetchRequest) (*calls.FetchResult, error)
	Eval(ctx context.Context, req calls.EvalRequest) (*calls.EvalResult, error)
	Open(ctx context.Context, req calls.OpenRequest) (*calls.PageInfo, error)
}

// pageState is what the isolated world read of the tab: its URL and the
// meta tags, storage, cookies and scripts the recipe's sources name.
type pageState struct {
	URL     string             `json:"url"`
	Meta    map[string]*string `json:"meta"`
	Local   map[string]*string `json:"local"`
	Session map[string]*string `json:"session"`
	Cookie  map[string]*string `json:"cookie"`
	Script  map[string]*string `json:"script"`
}

// readState reads, in one script of our isolated world (nothing written
// to the page), every source of kind meta, storage, cookie and script the
// params name.
func readState(ctx context.Context, s Session, params []Param) (*pageState, error) {
	want := map[string][]string{}
	for _, p := range params {
		switch p.From {
		case FromMeta, FromLocal, FromSession, FromCookie, FromScript:
			want[p.From] = append(want[p.From], p.Key)
		}
	}
	arg, _ := json.Marshal(want)
	js := `((w) => {
  const pick = (keys, f) => { const o = {}; for (const k of keys || []) { try { o[k] = f(k); } catch (e) { o[k] = null; } } return o; };
  const jar = {};
  let raw = '';
  try { raw = document.cookie; } catch (e) { /* about:blank, a sandboxed page */ }
  for (const part of raw.split(';')) { const i = part.indexOf('='); if (i > 0) jar[part.slice(0, i).trim()] = decodeURIComponent(part.slice(i + 1).trim()); }
  return {
    url: location.href,
    meta: pick(w.meta, (k) => { const m = document.querySelector('meta[name="' + CSS.escape(k) + '"], meta[property="' + CSS.escape(k) + '"]'); return m ? m.getAttribute('content') : null; }),
    local: pick(w.localStorage, (k) => localStorage.getItem(k)),
    session: pick(w.sessionStorage, (k) => sessionStorage.getItem(k)),
    cookie: pick(w.cookie, (k) => (k in jar ? jar[k] : null)),
    script: pick(w.script, (k) => { const e = document.getElementById(k); return e ? e.textContent : null; }),
  };
})(` + string(arg) + `)`
	res, err := s.Eval(ctx, calls.EvalRequest{Expression: js})
	if err != nil {
		return nil, err
	}
	var st pageState
	if err := json.Unmarshal(res.Value, &st); err != nil {
		return nil, err
	}
	return &st, nil
}

// value reads one source fresh. answers are the earlier calls' answers
// already read, by URL.
func (c *caller) value(ctx context.Context, p Param) (string, error) {
	var raw *string
	switch p.From {
	case FromConst:
		return p.Value, nil
	case FromVar:
		v, ok := c.opts.Vars[p.Key]
		if !ok {
			return "", calls.Errorf(calls.ErrBadInput, "pass it with --var "+p.Key+"=…", "no value for the variable %q", p.Key)
		}
		return p.Prefix + v, nil
	case FromMeta:
		raw = c.state.Meta[p.Key]
	case FromLocal:
		raw = c.state.Local[p.Key]
	case FromSession:
		raw = c.state.Session[p.Key]
	case FromCookie:
		raw = c.state.Cookie[p.Key]
	case FromScript:
		raw = c.state.Script[p.Key]
	case FromResponse:
		doc, err := c.earlier(ctx, p.URL)
		if err != nil {
			return "", err
		}
		v, ok := at(doc, p.Path)
		if !ok || text(v) == "" {
			return "", newError(KindChanged, "learn the recipe again", "%s: the earlier answer of %s has nothing at %s", p.Name, p.URL, p.Path)
		}
		c.known.Add(p.Name, text(v))
		return p.Prefix + text(v), nil
	}
	if raw == nil {
		return "", c.missing(p)
	}
	v := *raw
	if p.Path != "" {
		var doc any
		if json.Unmarshal([]byte(v), &doc) != nil {
			return "", c.missing(p)
		}
		x, ok := at(doc, p.Path)
		if !ok || text(x) == "" {
			return "", c.missing(p)
		}
		v = text(x)
	}
	c.known.Add(p.Name, v)
	return p.Prefix + v, nil
}

// missing is a source the page no longer holds: a token gone from
// storage means signed out (auth); anything else, a changed page.
func (c *caller) missing(p Param) error {
	where := p.From + " " + p.Key + strings.TrimSpace(" "+p.Path)
	if secret.Name(p.Name) || secret.Name(p.Key) {
		return newError(KindAuth, "sign in on "+c.r.Site+" in this session, then call again",
			"%s is read from %s, which the page does not hold (signed out?)", p.Name, where)
	}
	return newError(KindChanged, "the page changed: learn the recipe again", "%s is read from %s, which the page does not hold", p.Name, where)
}

// earlier returns the JSON answer of a GET an earlier value is read from.
func (c *caller) earlier(ctx context.Context, u string) (any, error) {
	if doc, ok := c.answers[u]; ok {
		return doc, nil
	}
	res, err := c.send(ctx, calls.FetchRequest{URL: u}, nil)
	if err != nil {
		return nil, err
	}
	var doc any
	if res.Status != 200 || json.Unmarshal([]byte(res.Body), &doc) != nil {
		return nil, newError(KindChanged, "learn the recipe again", "the earlier call %s answered %d, not JSON", u, res.Status)
	}
	c.answers[u] = doc
	return doc, nil
}
