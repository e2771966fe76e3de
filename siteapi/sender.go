package siteapi

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/calls"
)

// Who sent the call: a capture keeps the script place that sent each
// request (capture.Exchange.Initiator, "URL:line:column", the first frame
// of the initiator's stack). A bundled site's place is a minified line; when
// the script names a source map (a sourceMappingURL comment, or a
// SourceMap header), the place is mapped to the file and line it was
// written in, and the function around it. The script and its map are
// fetched from the tab, by the one fetch path (Session.Fetch: the URL
// policy checks each, the browser's own connection), bounded in bytes and
// time, and only for the call learned.

// Bounds of naming the sender.
const (
	senderTimeout  = 10 * time.Second
	senderMaxBytes = 8 << 20
)

// Sender names the code that sent a request from its initiator
// ("URL:line:column", 1-based): "src/api/lamps.ts:12:10 loadLamps", when
// the script ships a source map, or "" when it does not, the place is no
// script file's (an inline script is not fetched), or the map does not
// name it.
func Sender(ctx context.Context, s Session, initiator string) string {
	script, line, col, ok := splitPlace(initiator)
	if !ok {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, senderTimeout)
	defer cancel()
	get := func(u string) (*calls.FetchResult, bool) {
		res, err := s.Fetch(ctx, calls.FetchRequest{URL: u, Credentials: "same-origin", MaxBytes: senderMaxBytes,
			TimeoutMS: int(senderTimeout.Milliseconds())})
		return res, err == nil && res.Status == 200
	}
	js, ok := get(script)
	if !ok {
		return ""
	}
	ref := header(js, "sourcemap")
	if ref == "" {
		ref = header(js, "x-sourcemap")
	}
	if ref == "" {
		ref = mapComment(js.Body)
	}
	if ref == "" {
		return ""
	}
	var raw []byte
	if strings.HasPrefix(ref, "data:") {
		_, data, found := strings.Cut(ref, ";base64,")
		if !found {
			return ""
		}
		b, err := base64.StdEncoding.DecodeString(data)
		if err != nil {
			return ""
		}
		raw = b
	} else {
		base, err := url.Parse(script)
		if err != nil {
			return ""
		}
		mu, err := base.Parse(ref)
		if err != nil || (mu.Scheme != "http" && mu.Scheme != "https") {
			return ""
		}
		res, ok := get(mu.String())
		if !ok {
			return ""
		}
		raw = []byte(res.Body)
	}
	m, err := parseSourceMap(raw)
	if err != nil {
		return ""
	}
	o, ok := m.lookup(line-1, col-1)
	if !ok {
		return ""
	}
	where := fmt.Sprintf("%s:%d:%d", o.Source, o.Line+1, o.Column+1)
	if fn := enclosing(m.content(o.Source), o.Line); fn != "" {
		return where + " " + fn
	}
	return where
}

// splitPlace reads "URL:line:column".
func splitPlace(p string) (string, int, int, bool) {
	i := strings.LastIndexByte(p, ':')
	if i < 0 {
		return "", 0, 0, false
	}
	j := strings.LastIndexByte(p[:i], ':')
	if j < 0 {
		return "", 0, 0, false
	}
	line, err1 := strconv.Atoi(p[j+1 : i])
	col, err2 := strconv.Atoi(p[i+1:])
	u := p[:j]
	if err1 != nil || err2 != nil || line < 1 || col < 1 || !callable(u) || !scriptFile(u) {
		return "", 0, 0, false
	}
	return u, line, col, true
}

// scriptFile reports whether a URL names a script file (.js, .mjs,
// .cjs): a script inline in a page has the page's URL, which is not
// fetched again to look for a map (a page is a request the site counts,
// and a source map names a bundle).
func scriptFile(u string) bool {
	p, err := url.Parse(u)
	if err != nil {
		return false
	}
	path := strings.ToLower(p.Path)
	return strings.HasSuffix(path, ".js") || strings.HasSuffix(path, ".mjs") || strings.HasSuffix(path, ".cjs")
}

// mapComment is the last sourceMappingURL comment of a script.
func mapComment(js string) string {
	tail := js
	for _, mark := range []string{"//# sourceMappingURL=", "//@ sourceMappingURL="} {
		if i := strings.LastIndex(tail, mark); i >= 0 {
			rest := tail[i+len(mark):]
			if k := strings.IndexAny(rest, " \t\r\n*"); k >= 0 {
				rest = rest[:k]
			}
			return rest
		}
	}
	return ""
}
