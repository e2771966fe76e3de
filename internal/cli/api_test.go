package cli

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmd/api"
	"github.com/waymark-dev/waymark/internal/cli/cmd/pilot"
	"github.com/waymark-dev/waymark/internal/cli/pilotflags"
	"github.com/waymark-dev/waymark/siteapi"
)

// TestAPICallKeepsValidators: the first call's ETag goes into the recipe
// file and is sent by the next call, whose answer of unchanged prints no
// rows.
func TestAPICallKeepsValidators(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shop.api.json")
	if err := os.WriteFile(path, []byte(`{"format":"waymark.api/1","site":"http://shop.test","page":"http://shop.test/","request":{"method":"GET","url":"http://shop.test/api/items"},"rows":"/items","fields":[{"name":"title","path":"/title"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var sent []siteapi.Validators
	fc := &clitest.FakeCaller{Reply: func(method string, params any) (any, error) {
		req := params.(calls.APICallRequest)
		r, err := siteapi.Parse(req.Recipe)
		if err != nil {
			return nil, err
		}
		var v siteapi.Validators
		if r.Validators != nil {
			v = *r.Validators
		}
		sent = append(sent, v)
		if v.ETag == `"v1"` {
			return calls.APICallResult{Rows: []map[string]any{}, Unchanged: true, Requests: 1, Ended: "unchanged"}, nil
		}
		return calls.APICallResult{Rows: []map[string]any{{"title": "Lamp"}}, Pages: 1, Requests: 1, ETag: `"v1"`, Ended: "last page"}, nil
	}}
	run := func() string {
		c, out, _ := clitest.NewCommon(fc, false, false)
		if err := api.APICallRun(context.Background(), &api.APICallOptions{Common: c, Recipe: path}); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	if out := run(); !strings.Contains(out, `"title":"Lamp"`) {
		t.Errorf("first call printed %q", out)
	}
	if out := run(); !strings.Contains(out, "unchanged") || strings.Contains(out, "Lamp") {
		t.Errorf("second call printed %q", out)
	}
	if len(sent) != 2 || sent[0].ETag != "" || sent[1].ETag != `"v1"` {
		t.Errorf("validators sent %+v", sent)
	}
}

// TestExtractLearnAPI: extract --learn-api learns from the session's
// capture (read and left running, Keep) and writes the recipe; with no
// capture running it says how to get one.
func TestExtractLearnAPI(t *testing.T) {
	capt := `{"format":"waymark.capture/1","started":"2026-12-01T00:00:00Z","stopped":"2026-12-01T00:01:00Z","exchanges":[{"id":"1","kind":"fetch","method":"GET","url":"http://shop.test/api/items","page":"http://shop.test/","status":200,"response_body":"{\"items\":[{\"title\":\"Go\"}]}","sent":"2026-12-01T00:00:01Z"}]}`
	var keep []bool
	capturing := true
	fc := &clitest.FakeCaller{Reply: func(method string, params any) (any, error) {
		if method == calls.MethodCaptureStop {
			if !capturing {
				return nil, calls.Errorf(calls.ErrBadInput, "", "session does not capture")
			}
			keep = append(keep, params.(calls.CaptureStopRequest).Keep)
			return calls.CaptureStopResult{Capture: []byte(capt)}, nil
		}
		return apiReply(method, params)
	}}
	c, _, _ := clitest.NewCommon(fc, false, false)
	opts := &pilot.ExtractOptions{PilotOptions: pilotflags.PilotOptions{Common: c}}
	path := filepath.Join(t.TempDir(), "items.api.json")
	if err := opts.LearnAPIRun(context.Background(), []byte(`[{"title":"Go"}]`), path); err != nil {
		t.Fatal(err)
	}
	if r, err := siteapi.Load(path); err != nil || r.Request.URL != "http://shop.test/api/items" || !r.Learned.Verified {
		t.Errorf("recipe %+v, %v", r, err)
	}
	if len(keep) != 1 || !keep[0] {
		t.Errorf("capture stop calls with keep %v, want one that keeps it running", keep)
	}
	capturing = false
	err := opts.LearnAPIRun(context.Background(), []byte(`[{"title":"Go"}]`), path)
	if !errors.Is(err, calls.ErrBadInput) || !strings.Contains(calls.Hint(err), "waymark capture start") {
		t.Errorf("no capture: %v (hint %q)", err, calls.Hint(err))
	}
}

// TestExtractLearnAPIWithoutACaptureReadsNothing: with no capture running,
// extract --learn-api refuses before it reads a page or asks a model (it
// read every page and called the model, then refused, leaving the tab on
// the last page).
func TestExtractLearnAPIWithoutACaptureReadsNothing(t *testing.T) {
	fc := &clitest.FakeCaller{Reply: func(method string, params any) (any, error) {
		if method == calls.MethodCaptureStop {
			return nil, calls.Errorf(calls.ErrBadInput, "", "session does not capture")
		}
		return apiReply(method, params)
	}}
	c, _, _ := clitest.NewCommon(fc, false, false)
	dir := t.TempDir()
	schema := filepath.Join(dir, "rows.schema.json")
	if err := os.WriteFile(schema, []byte(`{"type":"array","items":{"type":"object","properties":{"title":{"type":"string"}}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := &pilot.ExtractOptions{PilotOptions: pilotflags.PilotOptions{Common: c}, SchemaFile: schema, Pages: 3, LearnAPI: filepath.Join(dir, "items.api.json")}
	err := pilot.ExtractRun(context.Background(), opts)
	if !errors.Is(err, calls.ErrBadInput) || !strings.Contains(calls.Hint(err), "waymark capture start") {
		t.Fatalf("no capture: %v (hint %q)", err, calls.Hint(err))
	}
	for _, call := range fc.Calls {
		if call.Method != calls.MethodCaptureStop {
			t.Errorf("called %s before refusing", call.Method)
		}
	}
}

// TestAPICallApproval: a call the session holds for approval fails
// needs_approval; --allow-submit sends the held request's approval back
// once, and --approve sends a saved one.
func TestAPICallApproval(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "shop.api.json")
	if err := os.WriteFile(path, []byte(`{"format":"waymark.api/1","site":"http://shop.test","page":"http://shop.test/","request":{"method":"PUT","url":"http://shop.test/api/items"},"rows":"/items","fields":[{"name":"title","path":"/title"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	held := calls.Approval{Action: siteapi.ApprovalAction, URL: "http://shop.test/", Sends: "PUT http://shop.test/api/items", Token: "L.1"}
	var approves []*calls.Approval
	fc := &clitest.FakeCaller{Reply: func(method string, params any) (any, error) {
		req := params.(calls.APICallRequest)
		approves = append(approves, req.Approve)
		if req.Approve == nil {
			data, _ := json.Marshal(held)
			return nil, &calls.Error{Kind: calls.ErrNeedsApproval, Msg: "api call would send PUT http://shop.test/api/items: it needs approval", Data: data}
		}
		return calls.APICallResult{Rows: []map[string]any{{"title": "Lamp"}}, Pages: 1, Requests: 1, Ended: "last page"}, nil
	}}
	c, _, _ := clitest.NewCommon(fc, false, false)
	if err := api.APICallRun(context.Background(), &api.APICallOptions{Common: c, Recipe: path}); !errors.Is(err, calls.ErrNeedsApproval) || len(approves) != 1 {
		t.Fatalf("unapproved: %v after %d call(s)", err, len(approves))
	}
	approves = nil
	c, out, _ := clitest.NewCommon(fc, false, false)
	if err := api.APICallRun(context.Background(), &api.APICallOptions{Common: c, Recipe: path, AllowSubmit: true}); err != nil || !strings.Contains(out.String(), "Lamp") {
		t.Fatalf("--allow-submit: %v %q", err, out)
	}
	if len(approves) != 2 || approves[1] == nil || approves[1].Token != "L.1" {
		t.Errorf("--allow-submit sent %+v", approves)
	}
	approves = nil
	file := filepath.Join(dir, "approval.json")
	b, _ := json.Marshal(held)
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	c, _, _ = clitest.NewCommon(fc, false, false)
	if err := api.APICallRun(context.Background(), &api.APICallOptions{Common: c, Recipe: path, Approve: file}); err != nil || len(approves) != 1 || approves[0] == nil {
		t.Fatalf("--approve: %v, sent %+v", err, approves)
	}
}
