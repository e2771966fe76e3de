package api

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
		if err := apiCallRun(context.Background(), &APICallOptions{Common: c, Recipe: path}); err != nil {
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

// TestAPICallApproval: a call the session holds for approval fails
// needs_approval; --allow-submit sends the held request's approval back
// once, and --approve sends a saved one.
func TestAPICallApproval(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "shop.api.json")
	if err := os.WriteFile(path, []byte(`{"format":"waymark.api/1","site":"http://shop.test","page":"http://shop.test/","request":{"method":"PUT","url":"http://shop.test/api/items"},"rows":"/items","fields":[{"name":"title","path":"/title"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	held := calls.Approval{Action: siteapi.ApprovalAction, URL: "http://shop.test/", Control: "PUT http://shop.test/api/items",
		Why: "is a PUT, which may change what the site holds", Sends: "PUT http://shop.test/api/items", Token: "L.1"}
	var approves []*calls.Approval
	fc := &clitest.FakeCaller{Reply: func(method string, params any) (any, error) {
		req := params.(calls.APICallRequest)
		approves = append(approves, req.Approve)
		if req.Approve == nil {
			data, _ := json.Marshal(held)
			return nil, &calls.Error{Kind: calls.ErrNeedsApproval, Msg: held.Line() + ", so it needs approval; nothing was sent", Data: data}
		}
		return calls.APICallResult{Rows: []map[string]any{{"title": "Lamp"}}, Pages: 1, Requests: 1, Ended: "last page"}, nil
	}}
	c, _, _ := clitest.NewCommon(fc, false, false)
	if err := apiCallRun(context.Background(), &APICallOptions{Common: c, Recipe: path}); !errors.Is(err, calls.ErrNeedsApproval) || len(approves) != 1 {
		t.Fatalf("unapproved: %v after %d call(s)", err, len(approves))
	}
	approves = nil
	c, out, _ := clitest.NewCommon(fc, false, false)
	if err := apiCallRun(context.Background(), &APICallOptions{Common: c, Recipe: path, AllowSubmit: true}); err != nil || !strings.Contains(out.String(), "Lamp") {
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
	if err := apiCallRun(context.Background(), &APICallOptions{Common: c, Recipe: path, Approve: file}); err != nil || len(approves) != 1 || approves[0] == nil {
		t.Fatalf("--approve: %v, sent %+v", err, approves)
	}
}

// TestAPICallJSONKeys pins the names of what `api call --json` prints as
// the envelope's data (calls.APICallResult on the wire): programs read
// them, so a rename is a break.
func TestAPICallJSONKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shop.api.json")
	if err := os.WriteFile(path, []byte(`{"format":"waymark.api/1","site":"http://shop.test","page":"http://shop.test/","request":{"method":"GET","url":"http://shop.test/api/items"},"rows":"/items","fields":[{"name":"title","path":"/title"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		reply calls.APICallResult
		want  string
	}{
		{"read", calls.APICallResult{Rows: []map[string]any{{"title": "Lamp"}}, Pages: 1, Requests: 2, Bytes: 26, Ended: "last page",
			ETag: `"v1"`, LastModified: "Sat, 05 Dec 2026 10:00:00 GMT", WaitedMS: 1500},
			`{"bytes":26,"ended":"last page","etag":"\"v1\"","last_modified":"Sat, 05 Dec 2026 10:00:00 GMT","pages":1,"requests":2,"rows":[{"title":"Lamp"}],"waited_ms":1500}`},
		{"unchanged", calls.APICallResult{Rows: []map[string]any{}, Unchanged: true, Requests: 1, Ended: "unchanged", ETag: `"v1"`},
			`{"bytes":0,"ended":"unchanged","etag":"\"v1\"","pages":0,"requests":1,"rows":[],"unchanged":true}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fc := &clitest.FakeCaller{Reply: func(string, any) (any, error) { return tc.reply, nil }}
			c, out, _ := clitest.NewCommon(fc, true, false)
			if err := apiCallRun(context.Background(), &APICallOptions{Common: c, Recipe: path}); err != nil {
				t.Fatal(err)
			}
			var env struct {
				OK   bool           `json:"ok"`
				Data map[string]any `json:"data"`
			}
			if err := json.Unmarshal(out.Bytes(), &env); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			got, _ := json.Marshal(env.Data) // keys sorted
			if !env.OK || string(got) != tc.want {
				t.Errorf("data %s\nwant %s", got, tc.want)
			}
		})
	}
}
