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
// screenshot) and records the screenshot and act requests.
type fakeDaemon struct {
	mu    sync.Mutex
	shots []calls.ScreenshotRequest
	acts  []calls.ActRequest
}

func (d *fakeDaemon) Call(_ context.Context, _, method string, params, result any) error {
	if method == calls.MethodAct {
		d.mu.Lock()
		d.acts = append(d.acts, params.(calls.ActRequest))
		d.mu.Unlock()
	}
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

// TestRunMasksSecretFields: a fill or type of a scenario that brings in
// a secret, by ${NAME} or by value, names it in its request, from which
// the driver masks the field in every later outline and screenshot; the
// others name none.
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
	var got []string
	for _, a := range d.acts {
		got = append(got, a.Target+" "+a.Secret)
	}
	want := []string{"label=Name ", "label=Key API_KEY", "label=Key again API_KEY", "label=Copy API_KEY", "label=Key API_KEY"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fills and their secrets (-want +got):\n%s", diff)
	}
}
