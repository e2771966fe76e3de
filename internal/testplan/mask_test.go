package testplan

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/secret"
)

// fakeDaemon answers every call with an empty result (a PNG for a
// screenshot) and records the screenshot requests.
type fakeDaemon struct {
	mu    sync.Mutex
	shots []calls.ScreenshotRequest
}

func (d *fakeDaemon) Call(_ context.Context, _, method string, params, result any) error {
	if method == calls.MethodScreenshot {
		d.mu.Lock()
		d.shots = append(d.shots, params.(calls.ScreenshotRequest))
		d.mu.Unlock()
		result.(*calls.Image).Data = []byte("\x89PNG\r\n\x1a\n")
	}
	return nil
}

// fakeAgent types the secret API_KEY into @e7 for every instruction.
type fakeAgent struct{}

func (fakeAgent) Act(_ context.Context, _ string, _ *pilot.ActOptions) (*pilot.ActResult, error) {
	return &pilot.ActResult{Answer: pilot.ActAnswer{Action: "fill", Ref: "e7", Value: "%API_KEY%"},
		Request: calls.ActRequest{Kind: calls.ActFill, Target: "@e7", Value: "«secret:API_KEY»"}}, nil
}

func (fakeAgent) Extract(context.Context, string, json.RawMessage) (*pilot.ExtractResult, error) {
	return &pilot.ExtractResult{}, nil
}

// TestRunMasksSecretFields: every screenshot of a scenario masks the
// fields its steps typed a secret into so far, and only those.
func TestRunMasksSecretFields(t *testing.T) {
	p, err := Parse([]byte(`name: masks
secrets: [API_KEY]
scenarios:
  - name: fields
    steps:
      - open https://shop.test/
      - screenshot before
      - fill label=Name Ann
      - fill label=Key ${API_KEY}
      - type "label=Key again" "the key is ${API_KEY}"
      - fill label=Copy ${COPY}
      - fill label=Key ${API_KEY}
      - screenshot filled
      - act type ${API_KEY} into the Token field
      - screenshot: {name: after act, full: true}
  - name: another scenario
    steps:
      - screenshot fresh
`), "plan.yaml")
	if err != nil {
		t.Fatal(err)
	}
	const key = "sk-live-123456"
	env := map[string]string{"API_KEY": key, "COPY": "copy of " + key}
	d := &fakeDaemon{}
	rep, err := Run(context.Background(), p, Options{
		Caller: d, OutDir: filepath.Join(t.TempDir(), "evidence"),
		Getenv:   func(k string) string { return env[k] },
		NewAgent: func(string, *secret.Set) (Agent, error) { return fakeAgent{}, nil },
	})
	if err != nil || !rep.Passed {
		t.Fatalf("run: %v %+v", err, rep)
	}
	typed := []string{"label=Key", "label=Key again", "label=Copy"}
	want := []calls.ScreenshotRequest{
		{},
		{Mask: typed},
		{Full: true, Mask: append(typed, "@e7")},
		{}, // a new scenario starts with nothing typed
	}
	if diff := cmp.Diff(want, d.shots); diff != "" {
		t.Errorf("screenshot requests (-want +got):\n%s", diff)
	}
}
