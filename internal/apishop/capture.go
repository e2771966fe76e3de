package apishop

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/capture"
)

// Capture is the capture a recorder would have written of the API calls
// the shop answered (Log) and of the page's state, redacted under key as
// package capture's markers are: the token, CSRF value and session
// cookie become markers wherever they were, the build id and the
// __NEXT_DATA__ stay as read. It stands in for a real capture in tests
// that do not drive one.
func (s *Shop) Capture(key []byte) *capture.File {
	mark := func(kind, v string) string { return capture.Marker(key, kind, v) }
	start := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	f := &capture.File{Format: capture.Format, Started: start, Stopped: start.Add(time.Minute)}
	for i, l := range s.Log() {
		x := capture.Exchange{ID: fmt.Sprintf("x%d", i+1), Kind: "fetch", Method: l.Method, URL: l.URL, Page: s.URL + "/",
			Status: l.Status, StatusText: http.StatusText(l.Status), MimeType: "application/json", ResponseBody: l.Body,
			Sent: start.Add(time.Duration(i+1) * time.Second)}
		for name, vs := range l.Headers {
			v := strings.Join(vs, ", ")
			switch strings.ToLower(name) {
			case "authorization":
				scheme, rest, _ := strings.Cut(v, " ")
				v = scheme + " " + mark("authorization", rest)
			case "x-csrf-token":
				v = mark("token", v)
			case "cookie":
				v = strings.ReplaceAll(v, s.SID, mark("cookie", s.SID))
			}
			x.RequestHeaders = append(x.RequestHeaders, capture.Header{Name: strings.ToLower(name), Value: v})
		}
		for name, vs := range l.RespHeaders {
			x.ResponseHeaders = append(x.ResponseHeaders, capture.Header{Name: strings.ToLower(name), Value: strings.Join(vs, ", ")})
		}
		f.Exchanges = append(f.Exchanges, x)
	}
	page := s.URL + "/"
	f.State = []capture.StateValue{
		{Source: "meta:csrf-token", Page: page, Value: mark("token", s.CSRF)},
		{Source: "localStorage:token", Page: page, Value: mark("token", s.Token)},
		{Source: "cookie:sid", Page: page, Value: mark("cookie", s.SID)},
		{Source: "script:__NEXT_DATA__", Page: page, Value: fmt.Sprintf(`{"buildId":%q,"page":"/","props":{"pageProps":{"title":"Lamps","pageSize":%d}}}`, s.BuildID, s.opts.PageSize)},
	}
	return f
}
