package capture

import (
	"encoding/json"
	"net/url"
	"strings"
	"time"
)

// HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/): the types
// below are the parts of it a capture fills.

// HAR is a HAR 1.2 document.
type HAR struct {
	Log HARLog `json:"log"`
}

// HARLog is a HAR's log.
type HARLog struct {
	Version string     `json:"version"`
	Creator HARCreator `json:"creator"`
	Pages   []HARPage  `json:"pages"`
	Entries []HAREntry `json:"entries"`
	Comment string     `json:"comment,omitempty"`
}

// HARCreator names the program that wrote a HAR.
type HARCreator struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// HARPage is one page (a document the capture saw).
type HARPage struct {
	StartedDateTime string         `json:"startedDateTime"`
	ID              string         `json:"id"`
	Title           string         `json:"title"`
	PageTimings     HARPageTimings `json:"pageTimings"`
}

// HARPageTimings are a page's timings; unknown ones are -1.
type HARPageTimings struct {
	OnContentLoad float64 `json:"onContentLoad"`
	OnLoad        float64 `json:"onLoad"`
}

// HAREntry is one request and its response.
type HAREntry struct {
	Pageref         string      `json:"pageref,omitempty"`
	StartedDateTime string      `json:"startedDateTime"`
	Time            float64     `json:"time"`
	Request         HARRequest  `json:"request"`
	Response        HARResponse `json:"response"`
	Cache           struct{}    `json:"cache"`
	Timings         HARTimings  `json:"timings"`
	Comment         string      `json:"comment,omitempty"`
}

// HARRequest is an entry's request.
type HARRequest struct {
	Method      string         `json:"method"`
	URL         string         `json:"url"`
	HTTPVersion string         `json:"httpVersion"`
	Cookies     []HARNameValue `json:"cookies"`
	Headers     []HARNameValue `json:"headers"`
	QueryString []HARNameValue `json:"queryString"`
	PostData    *HARPostData   `json:"postData,omitempty"`
	HeadersSize int            `json:"headersSize"`
	BodySize    int            `json:"bodySize"`
}

// HARResponse is an entry's response.
type HARResponse struct {
	Status      int            `json:"status"`
	StatusText  string         `json:"statusText"`
	HTTPVersion string         `json:"httpVersion"`
	Cookies     []HARNameValue `json:"cookies"`
	Headers     []HARNameValue `json:"headers"`
	Content     HARContent     `json:"content"`
	RedirectURL string         `json:"redirectURL"`
	HeadersSize int            `json:"headersSize"`
	BodySize    int            `json:"bodySize"`
	Comment     string         `json:"comment,omitempty"`
}

// HARNameValue is a header, cookie or query parameter.
type HARNameValue struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// HARPostData is a request's body.
type HARPostData struct {
	MimeType string         `json:"mimeType"`
	Params   []HARNameValue `json:"params"`
	Text     string         `json:"text"`
}

// HARContent is a response's body.
type HARContent struct {
	Size     int    `json:"size"`
	MimeType string `json:"mimeType"`
	Text     string `json:"text,omitempty"`
	Comment  string `json:"comment,omitempty"`
}

// HARTimings are an entry's timings: only the total is known, as wait.
type HARTimings struct {
	Send    float64 `json:"send"`
	Wait    float64 `json:"wait"`
	Receive float64 `json:"receive"`
}

// ToHAR turns a capture into HAR 1.2. It copies what f holds, so give it
// a redacted file ([Redactor.File]): it redacts nothing itself. WebSocket
// and event-stream frames, which HAR 1.2 has no place for, are left out;
// the page state too.
func ToHAR(f *File, version string) *HAR {
	if version == "" {
		version = "dev"
	}
	h := &HAR{Log: HARLog{Version: "1.2", Creator: HARCreator{Name: "waymark", Version: version},
		Pages: []HARPage{}, Entries: []HAREntry{}}}
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
				h.Log.Pages = append(h.Log.Pages, HARPage{StartedDateTime: harTime(e.Sent), ID: ref, Title: page,
					PageTimings: HARPageTimings{OnContentLoad: -1, OnLoad: -1}})
			}
		}
		h.Log.Entries = append(h.Log.Entries, harEntry(e, ref))
	}
	if f.Dropped > 0 {
		h.Log.Comment = "waymark kept only part of the capture: " + itoa(f.Dropped) + " exchanges or bodies dropped"
	}
	return h
}

func harEntry(e Exchange, ref string) HAREntry {
	req := HARRequest{Method: e.Method, URL: e.URL, HTTPVersion: "HTTP/1.1", Cookies: []HARNameValue{},
		Headers: harHeaders(e.RequestHeaders), QueryString: []HARNameValue{}, HeadersSize: -1, BodySize: len(e.RequestBody)}
	if u, err := url.Parse(e.URL); err == nil && u.RawQuery != "" {
		for _, p := range strings.Split(u.RawQuery, "&") {
			k, v, _ := strings.Cut(p, "=")
			req.QueryString = append(req.QueryString, HARNameValue{unescape(k), unescape(v)})
		}
	}
	for _, h := range e.RequestHeaders {
		if strings.EqualFold(h.Name, "cookie") {
			for _, c := range strings.Split(h.Value, ";") {
				if k, v, ok := strings.Cut(strings.TrimSpace(c), "="); ok {
					req.Cookies = append(req.Cookies, HARNameValue{k, v})
				}
			}
		}
	}
	if e.RequestBody != "" {
		req.PostData = &HARPostData{MimeType: headerValue(e.RequestHeaders, "content-type"), Params: []HARNameValue{}, Text: e.RequestBody}
	}
	resp := HARResponse{Status: e.Status, StatusText: e.StatusText, HTTPVersion: "HTTP/1.1", Cookies: []HARNameValue{},
		Headers: harHeaders(e.ResponseHeaders), RedirectURL: e.RedirectedTo, HeadersSize: -1, BodySize: -1,
		Content: HARContent{Size: len(e.ResponseBody), MimeType: e.MimeType, Text: e.ResponseBody, Comment: e.BodyOmitted}}
	if resp.Content.MimeType == "" {
		resp.Content.MimeType = "x-unknown"
	}
	for _, h := range e.ResponseHeaders {
		if strings.EqualFold(h.Name, "set-cookie") {
			for _, line := range strings.Split(h.Value, "\n") {
				pair, _, _ := strings.Cut(line, ";")
				if k, v, ok := strings.Cut(pair, "="); ok {
					resp.Cookies = append(resp.Cookies, HARNameValue{strings.TrimSpace(k), v})
				}
			}
		}
	}
	if e.Failed != "" {
		resp.Comment = "failed: " + e.Failed
	}
	return HAREntry{Pageref: ref, StartedDateTime: harTime(e.Sent), Time: e.DurationMS, Request: req, Response: resp,
		Timings: HARTimings{Send: 0, Wait: e.DurationMS, Receive: 0}, Comment: e.Kind + " from " + e.Initiator}
}

func harHeaders(hs []Header) []HARNameValue {
	out := []HARNameValue{}
	for _, h := range hs {
		// CDP joins repeated headers with a line break; HAR lists each.
		for _, v := range strings.Split(h.Value, "\n") {
			out = append(out, HARNameValue{h.Name, v})
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
