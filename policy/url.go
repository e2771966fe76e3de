package policy

import (
	"net/url"
	"strings"
)

// CheckURL judges u by its scheme and the Allow and Block rules, without
// DNS. http, https, ws and wss URLs are judged by their host; about:blank,
// about:srcdoc and data: URLs are allowed (they reach no server, and
// Chromium itself refuses top-level data: navigations started by a page); a
// blob: URL is judged by the origin it carries; a file: URL of this
// machine only with [Options.Files]; every other scheme (chrome:,
// javascript:, view-source:, ftp: …) is refused. A host that is an
// IP address, or localhost, is also checked against
// [Options.PrivateNetwork] here, since that needs no DNS; for other names
// call [Policy.CheckHost], or [Policy.Check] for both.
//
// A refusal is a [*BlockedError] or a [*PrivateAddressError].
func (p *Policy) CheckURL(u *url.URL) error {
	if u == nil {
		return &BlockedError{Reason: ReasonBadURL}
	}
	raw := u.String()
	scheme := strings.ToLower(u.Scheme)
	switch scheme {
	case "http", "https", "ws", "wss":
	case "about":
		if o := strings.ToLower(u.Opaque); o == "blank" || o == "srcdoc" {
			return nil
		}
		return &BlockedError{URL: raw, Reason: ReasonScheme}
	case "data":
		return nil
	case "file":
		// A file of this machine: no host, or localhost. Block rules do
		// not name files; the one switch is [Options.Files].
		if h := strings.ToLower(u.Host); h != "" && h != "localhost" {
			return &BlockedError{URL: raw, Reason: ReasonBadURL}
		}
		if !p.files {
			return &BlockedError{URL: raw, Reason: ReasonFile}
		}
		return nil
	case "blob":
		inner, err := url.Parse(u.Opaque)
		if err != nil || inner.Scheme == "blob" {
			return &BlockedError{URL: raw, Reason: ReasonBadURL}
		}
		if err := p.CheckURL(inner); err != nil {
			if b, ok := err.(*BlockedError); ok {
				b.URL = raw
			}
			return err
		}
		return nil
	default:
		return &BlockedError{URL: raw, Reason: ReasonScheme}
	}
	host, addr, err := canonHost(u.Hostname())
	if err != nil {
		return &BlockedError{URL: raw, Reason: ReasonBadURL}
	}
	port := u.Port()
	if port == "" {
		port = defaultPorts[scheme]
	}
	path := cleanPath(u.Path)
	for _, r := range p.block {
		if r.match(scheme, host, port, path) {
			return &BlockedError{URL: raw, Reason: ReasonBlocked, Rule: r.text}
		}
	}
	if len(p.allow) > 0 && !p.allowed(scheme, host, port, path) {
		return &BlockedError{URL: raw, Reason: ReasonNotAllowed}
	}
	switch {
	case addr.IsValid():
		return p.checkAddr(host, addr, nil)
	case isLocalhost(host):
		return p.checkLocalhost(host)
	}
	return nil
}

func (p *Policy) allowed(scheme, host, port, path string) bool {
	for _, r := range p.allow {
		if r.match(scheme, host, port, path) {
			return true
		}
	}
	return false
}
