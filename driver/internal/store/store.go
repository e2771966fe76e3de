// Package store reads and writes what a site keeps in the browser: the
// session's cookies (the browser context's, in CDP's shapes) and an
// origin's local or session storage (a script for waymark's isolated
// world), turned to and from the calls shapes.
//
// It is one of the driver's feature rooms (driver/doc.go, Layout): it
// never imports driver. Sending the commands (to the browser target for
// the session's browser context, to the tab's world for storage) and
// masking what comes back with the session's secrets are the core's
// (driver/storage.go).
package store

import (
	"encoding/json"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"

	"github.com/waymark-dev/waymark/calls"
)

// CookieParams turns the cookies to set into CDP's, a cookie with neither
// URL nor domain set for page (the tab's URL), which must be http(s).
func CookieParams(cookies []calls.Cookie, page string) ([]*network.CookieParam, error) {
	if len(cookies) == 0 {
		return nil, calls.Errorf(calls.ErrBadInput, "usage: "+calls.Cmd("cookies set NAME VALUE"), "no cookie to set")
	}
	var params []*network.CookieParam
	for _, c := range cookies {
		if c.Name == "" {
			return nil, calls.Errorf(calls.ErrBadInput, "give the cookie a name", "a cookie has no name")
		}
		p := &network.CookieParam{Name: c.Name, Value: c.Value, URL: c.URL, Domain: c.Domain, Path: c.Path,
			HTTPOnly: c.HTTPOnly, Secure: c.Secure}
		if c.SameSite != "" {
			p.SameSite = network.CookieSameSite(c.SameSite)
		}
		if c.Expires > 0 {
			p.Expires = cdp.TimeSinceEpoch(c.Expires)
		}
		if p.URL == "" && p.Domain == "" {
			if !strings.HasPrefix(page, "http") {
				return nil, calls.Errorf(calls.ErrBadInput, "open a page first, or pass --url", "no page to set the cookie for")
			}
			p.URL = page
		}
		params = append(params, p)
	}
	return params, nil
}

// CookieList turns the browser's cookies into the calls shape (a session
// cookie has no expiry).
func CookieList(cookies []*network.Cookie) *calls.CookieList {
	out := &calls.CookieList{Cookies: []calls.Cookie{}}
	for _, c := range cookies {
		ck := calls.Cookie{Name: c.Name, Value: c.Value, Domain: c.Domain, Path: c.Path, HTTPOnly: c.HTTPOnly,
			Secure: c.Secure, SameSite: string(c.SameSite)}
		if !c.Session {
			ck.Expires = c.Expires
		}
		out.Cookies = append(out.Cookies, ck)
	}
	return out
}

// StorageScript is the script that does req on the page's local or
// session storage and returns the area's items (a map of strings).
func StorageScript(req calls.StorageRequest) (string, error) {
	area := "localStorage"
	switch req.Area {
	case "", "local":
	case "session":
		area = "sessionStorage"
	default:
		return "", calls.Errorf(calls.ErrBadInput, "storage local|session …", "unknown storage area %q", req.Area)
	}
	switch req.Op {
	case "", "get":
		if req.Key != "" {
			return `(() => { const v = ` + area + `.getItem(` + jsString(req.Key) + `); return v === null ? {} : {[` + jsString(req.Key) + `]: v} })()`, nil
		}
		return `Object.fromEntries(Object.entries(` + area + `))`, nil
	case "set":
		if req.Key == "" {
			return "", calls.Errorf(calls.ErrBadInput, "usage: "+calls.Cmd("storage local set KEY VALUE"), "no key given")
		}
		return `(() => { ` + area + `.setItem(` + jsString(req.Key) + `, ` + jsString(req.Value) + `); return Object.fromEntries(Object.entries(` + area + `)) })()`, nil
	case "clear":
		return `(() => { ` + area + `.clear(); return {} })()`, nil
	}
	return "", calls.Errorf(calls.ErrBadInput, "storage local|session get [KEY] | set KEY VALUE | clear", "unknown storage command %q", req.Op)
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string { b, _ := json.Marshal(s); return string(b) }
