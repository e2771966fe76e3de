package capture

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/chromedp/cdproto/har"
)

// HAR is a HAR 1.2 document, in the types cdproto generates from the
// spec (github.com/chromedp/cdproto/har) rather than types of waymark's
// own: they hold the whole of it (a cookie's path, domain, expiry,
// httpOnly and secure; a posted form's params), which the hand-written
// ones left out.
type HAR = har.HAR

// ToHAR turns a capture into HAR 1.2. It copies what f holds, so give it
// a redacted file ([Redactor.File]): it redacts nothing itself. WebSocket
// and event-stream frames, which HAR 1.2 has no place for, are left out;
// the page state too.
func ToHAR(f *File, version string) *HAR {
	if version == "" {
		version = "dev"
	}
	h := &HAR{Log: &har.Log{Version: "1.2", Creator: &har.Creator{Name: "waymark", Version: version},
		Pages: []*har.Page{}, Entries: []*har.Entry{}}}
	pages := map[string]string{}
	for _, e := range f.Exchanges {
		page := e.Page
		if e.Kind == "document" && e.Frame == "" && page == "" {
			page = e.URL
		}
		ref := ""
		if page != "" {
			if ref = pages[page]; ref == "" {
				ref = "page_" + itoa(len(pages)+1)
				pages[page] = ref
				unknown := -1.0
				h.Log.Pages = append(h.Log.Pages, &har.Page{StartedDateTime: harTime(e.Sent), ID: ref, Title: page,
					PageTimings: &har.PageTimings{OnContentLoad: &unknown, OnLoad: &unknown}})
			}
		}
		h.Log.Entries = append(h.Log.Entries, harEntry(e, ref))
	}
	if f.Dropped > 0 {
		h.Log.Comment = "waymark kept only part of the capture: " + itoa(f.Dropped) + " exchanges or bodies dropped"
	}
	return h
}

func harEntry(e Exchange, ref string) *har.Entry {
	req := &har.Request{Method: e.Method, URL: e.URL, HTTPVersion: "HTTP/1.1", Cookies: []*har.Cookie{},
		Headers: harHeaders(e.RequestHeaders), QueryString: []*har.NameValuePair{}, HeadersSize: -1, BodySize: int64(len(e.RequestBody))}
	if u, err := url.Parse(e.URL); err == nil && u.RawQuery != "" {
		for _, p := range strings.Split(u.RawQuery, "&") {
			k, v, _ := strings.Cut(p, "=")
			req.QueryString = append(req.QueryString, &har.NameValuePair{Name: unescape(k), Value: unescape(v)})
		}
	}
	for _, h := range e.RequestHeaders {
		if strings.EqualFold(h.Name, "cookie") {
			for _, c := range strings.Split(h.Value, ";") {
				if k, v, ok := strings.Cut(strings.TrimSpace(c), "="); ok {
					req.Cookies = append(req.Cookies, &har.Cookie{Name: k, Value: v})
				}
			}
		}
	}
	if e.RequestBody != "" {
		mime := headerValue(e.RequestHeaders, "content-type")
		req.PostData = &har.PostData{MimeType: mime, Params: []*har.Param{}, Text: e.RequestBody}
		if strings.HasPrefix(strings.ToLower(mime), "application/x-www-form-urlencoded") {
			for _, p := range strings.Split(e.RequestBody, "&") {
				if k, v, _ := strings.Cut(p, "="); k != "" {
					req.PostData.Params = append(req.PostData.Params, &har.Param{Name: unescape(k), Value: unescape(v)})
				}
			}
		}
	}
	// content.text is bytes in cdproto's type, so it goes as base64 and
	// says so (HAR 1.2's content.encoding).
	content := &har.Content{Size: int64(len(e.ResponseBody)), MimeType: e.MimeType, Comment: e.BodyOmitted}
	if e.ResponseBody != "" {
		content.Text, content.Encoding = []byte(e.ResponseBody), "base64"
	}
	if content.MimeType == "" {
		content.MimeType = "x-unknown"
	}
	resp := &har.Response{Status: int64(e.Status), StatusText: e.StatusText, HTTPVersion: "HTTP/1.1", Cookies: []*har.Cookie{},
		Headers: harHeaders(e.ResponseHeaders), RedirectURL: e.RedirectedTo, HeadersSize: -1, BodySize: -1, Content: content}
	for _, h := range e.ResponseHeaders {
		if strings.EqualFold(h.Name, "set-cookie") {
			for _, line := range strings.Split(h.Value, "\n") {
				if c := setCookie(line); c != nil {
					resp.Cookies = append(resp.Cookies, c)
				}
			}
		}
	}
	if e.Failed != "" {
		resp.Comment = "failed: " + e.Failed
	}
	return &har.Entry{Pageref: ref, StartedDateTime: harTime(e.Sent), Time: e.DurationMS, Request: req, Response: resp,
		Cache: &har.Cache{}, Timings: &har.Timings{Send: 0, Wait: e.DurationMS, Receive: 0}, Comment: e.Kind + " from " + e.Initiator}
}

// setCookie reads one Set-Cookie line with net/http's reader, for the
// attributes HAR keeps (path, domain, expiry, httpOnly, secure). The value
// is taken as written: it may be a redaction marker net/http would refuse.
func setCookie(line string) *har.Cookie {
	pair, _, _ := strings.Cut(line, ";")
	k, v, ok := strings.Cut(pair, "=")
	if !ok {
		return nil
	}
	c := &har.Cookie{Name: strings.TrimSpace(k), Value: v}
	if hc, err := http.ParseSetCookie("x=y" + line[len(pair):]); err == nil {
		c.Path, c.Domain, c.HTTPOnly, c.Secure = hc.Path, hc.Domain, hc.HttpOnly, hc.Secure
		if !hc.Expires.IsZero() {
			c.Expires = harTime(hc.Expires)
		}
	}
	return c
}

func harHeaders(hs []Header) []*har.NameValuePair {
	out := []*har.NameValuePair{}
	for _, h := range hs {
		// CDP joins repeated headers with a line break; HAR lists each.
		for _, v := range strings.Split(h.Value, "\n") {
			out = append(out, &har.NameValuePair{Name: h.Name, Value: v})
		}
	}
	return out
}

func harTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

func unescape(s string) string {
	if u, err := url.QueryUnescape(s); err == nil {
		return u
	}
	return s
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
