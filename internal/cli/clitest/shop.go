package clitest

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// The shop the tests of several commands talk to: a checkout routine, and
// daemons (fakes) whose page is the shop.

// CheckoutRoutine is a routine of four steps on a checkout page: open,
// fill Email (an input), fill Password (a secret), click Place order.
const CheckoutRoutine = `{
  "format": "waymark.routine/1", "name": "checkout", "version": 1,
  "variables": [{"name": "email"}, {"name": "password", "secret": true}],
  "steps": [
    {"id": "open", "kind": "goto", "url": "http://shop.test/checkout"},
    {"id": "email", "kind": "act", "op": "fill", "target": {"locator": "label=Email", "fingerprint": {"role": "textbox", "name": "Email"}}, "value": {"from": "input", "slot": "email"}},
    {"id": "password", "kind": "act", "op": "fill", "target": {"locator": "label=Password", "fingerprint": {"role": "textbox", "name": "Password"}}, "value": {"from": "secret", "slot": "password"}},
    {"id": "place", "kind": "act", "op": "click", "target": {"locator": "role=button[name=\"Place order\"]", "fingerprint": {"role": "button", "name": "Place order"}}}
  ]}`

// ShopCaller answers like a daemon whose page holds the checkout; find
// answers per locator from finds (found when absent).
func ShopCaller(finds map[string]calls.Resolution) *FakeCaller {
	return &FakeCaller{Reply: func(method string, params any) (any, error) {
		switch method {
		case calls.MethodOpen:
			return calls.PageInfo{URL: "http://shop.test/checkout", Title: "Checkout"}, nil
		case calls.MethodSnapshot:
			return calls.Snapshot{URL: "http://shop.test/checkout", Text: "- button \"Place order\" [ref=e4]"}, nil
		case calls.MethodFind:
			req := params.(calls.FindRequest)
			if r, ok := finds[req.Locator]; ok {
				return r, nil
			}
			return calls.Resolution{Status: calls.Found, Ref: "e1"}, nil
		case calls.MethodLocate:
			return calls.Evidence{Chosen: "placeholder=Email", Fingerprint: calls.Fingerprint{Role: "textbox", Placeholder: "Email"}}, nil
		case calls.MethodAct:
			return calls.Outcome{URL: "http://shop.test/checkout"}, nil
		case calls.MethodGet: // the replay's last look at the tab
			return calls.GetResult{Value: "http://shop.test/checkout", Found: true}, nil
		}
		return nil, errors.New("unexpected " + method)
	}}
}

// WriteRoutine writes CheckoutRoutine to a file of its own and returns its path.
func WriteRoutine(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "checkout.json")
	if err := os.WriteFile(p, []byte(CheckoutRoutine), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// PageReply answers like a daemon whose page is a small shop.
func PageReply(method string, params any) (any, error) {
	switch method {
	case calls.MethodOpen, calls.MethodBack, calls.MethodForward, calls.MethodReload:
		return calls.PageInfo{URL: "http://shop.test/", Title: "Shop"}, nil
	case calls.MethodSnapshot:
		return calls.Snapshot{URL: "http://shop.test/", Title: "Shop", Text: "- button \"Go\" [ref=e1]\n- textbox \"Email\" [ref=e2]"}, nil
	case calls.MethodGet:
		return calls.GetResult{Value: "Shop", Found: true}, nil
	case calls.MethodScreenshot, calls.MethodPDF:
		return calls.Image{Data: []byte("\x89PNG\r\n\x1a\nfake")}, nil
	case calls.MethodFind:
		return calls.Resolution{Status: calls.Found, Ref: "e1"}, nil
	case calls.MethodLocate:
		return calls.Evidence{Chosen: `role=button[name="Go"]`, Fingerprint: calls.Fingerprint{Role: "button", Name: "Go"}}, nil
	case calls.MethodAct:
		return calls.Outcome{URL: "http://shop.test/", Title: "Shop"}, nil
	case calls.MethodEval:
		return calls.EvalResult{Value: json.RawMessage(`{"a":1}`)}, nil
	case calls.MethodTraceStop:
		return calls.Trace{Format: calls.TraceFormat, Session: "default", Entries: []calls.TraceEntry{{Index: 1, Method: calls.MethodOpen, Params: json.RawMessage(`{"url":"http://shop.test/"}`), OK: true, Outcome: "at http://shop.test/ \"Shop\""}}}, nil
	case calls.MethodConsole:
		return calls.ConsoleLog{Messages: []calls.ConsoleMessage{{Seq: 1, Level: "error", Source: "console", Text: "boom", URL: "http://shop.test/app.js", Line: 3, UnixMS: 1}}, Errors: 1, Next: 2}, nil
	case calls.MethodNetwork:
		return calls.NetworkLog{Requests: []calls.Request{{Seq: 2, Method: "GET", URL: "http://shop.test/api", Type: "fetch", Status: 500, SentUnixMS: 1, DurationMS: 4}}, Failed: 1, Next: 2}, nil
	case calls.MethodRecordStop:
		return calls.RecordStopResult{Routine: json.RawMessage(CheckoutRoutine)}, nil
	case calls.MethodCaptureStop:
		return calls.CaptureStopResult{Capture: json.RawMessage(`{"format":"waymark.capture/1","exchanges":[]}`), HAR: json.RawMessage(`{"log":{"version":"1.2"}}`)}, nil
	case calls.MethodRecordRows:
		return calls.RecordRowsResult{Rows: []map[string]any{{"name": "Ann", "total": 12.5}}, Steps: 1}, nil
	}
	return calls.Empty{}, nil
}

// APIReply answers like a daemon whose page's list comes from its API.
func APIReply(method string, params any) (any, error) {
	switch method {
	case calls.MethodEval:
		return calls.EvalResult{Value: json.RawMessage(`{"url":"http://shop.test/"}`)}, nil
	case calls.MethodFetch:
		return calls.FetchResult{Status: 200, URL: "http://shop.test/api/items", Headers: []calls.Header{{Name: "etag", Value: `"v1"`}}, Body: `{"items":[{"title":"Go"}]}`}, nil
	case calls.MethodAPICall:
		return calls.APICallResult{Rows: []map[string]any{{"title": "Go"}}, Pages: 1, Requests: 1, Bytes: 26, Ended: "last page", ETag: `"v1"`}, nil
	}
	return PageReply(method, params)
}
