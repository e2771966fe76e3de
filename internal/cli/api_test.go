package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
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
	fc := &fakeCaller{reply: func(method string, params any) (any, error) {
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
		c, out, _ := testCommon(fc, false, false)
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
