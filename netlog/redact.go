package netlog

import (
	"net/url"
	"strings"

	"github.com/waymark-dev/waymark/secret"
)

// RedactURL returns raw without user info, fragment and query values: the
// query keeps its keys ("?q&page"), in their order. A path segment that
// looks like a credential is masked. A URL that does not parse is
// returned as its scheme and host only, or "(unreadable URL)".
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unreadable URL)"
	}
	u.User = nil
	u.Fragment, u.RawFragment = "", ""
	if u.Opaque != "" {
		// data:, blob:, about: … carry their content in the opaque part.
		return u.Scheme + ":…"
	}
	var keys []string
	if u.RawQuery != "" {
		for part := range strings.SplitSeq(u.RawQuery, "&") {
			k, _, _ := strings.Cut(part, "=")
			if k == "" {
				continue
			}
			if uk, err := url.QueryUnescape(k); err == nil {
				k = uk
			}
			keys = append(keys, url.QueryEscape(secret.Redact(k)))
		}
	}
	u.RawQuery, u.ForceQuery = "", false
	u.Path, u.RawPath = secret.Redact(u.Path), ""
	out := u.String()
	if len(keys) > 0 {
		out += "?" + strings.Join(keys, "&")
	}
	return out
}

// hostOf returns the host (and port) of "https://name:port", or h as it is
// when it has no scheme.
func hostOf(h string) string {
	if _, rest, ok := strings.Cut(h, "://"); ok {
		h = rest
	}
	h, _, _ = strings.Cut(h, "/")
	return h
}

// proxyName is a proxy as Chromium names it ("[127.0.0.1:9]",
// "PROXY 127.0.0.1:9") with any user info dropped.
func proxyName(p string) string {
	p = strings.Trim(p, "[]")
	fields := strings.Fields(p)
	for i, f := range fields {
		if at := strings.LastIndex(f, "@"); at >= 0 {
			fields[i] = f[at+1:]
		}
	}
	return strings.Join(fields, " ")
}
