package testplan

import (
	"context"
	"encoding/xml"
	"path/filepath"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// failingDaemon fails a click as a page does (nothing matches) and an
// open of /down as a daemon with no browser does.
type failingDaemon struct{ fakeDaemon }

func (d *failingDaemon) Call(ctx context.Context, session, method string, params, result any) error {
	switch method {
	case calls.MethodAct:
		return calls.Errorf(calls.ErrNoMatch, "take a snapshot", "no element matches text=Nope")
	case calls.MethodOpen:
		if params.(calls.OpenRequest).URL == "https://shop.test/down" {
			return calls.Errorf(calls.ErrUnavailable, "run waymark doctor", "no browser could be started")
		}
	}
	return d.fakeDaemon.Call(ctx, session, method, params, result)
}

// TestJUnitErrorsAndFailures: a scenario that failed on the page is a
// <failure>, one that failed because the browser was unavailable is an
// <error>, the scenarios the run could not reach are <skipped>, and the
// file fits the strict xUnit schema.
func TestJUnitErrorsAndFailures(t *testing.T) {
	p, err := Parse([]byte(`name: infra
base_url: https://shop.test
scenarios:
  - name: page fails
    steps:
      - open /
      - click text=Nope
  - name: browser down
    steps:
      - open /down
  - name: never reached
    steps:
      - open /
`), "plan.yaml")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	rep, err := Run(context.Background(), p, Options{Caller: &failingDaemon{}, OutDir: out})
	if err == nil {
		t.Fatal("the run went on without a browser")
	}
	if rep.Counts != (Counts{Scenarios: 3, Failed: 2, Skipped: 1}) {
		t.Errorf("counts: %+v", rep.Counts)
	}
	path := filepath.Join(out, "junit.xml")
	checkJUnit(t, path)
	var doc struct {
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
		Suite    struct {
			Failures int `xml:"failures,attr"`
			Errors   int `xml:"errors,attr"`
			Skipped  int `xml:"skipped,attr"`
			Cases    []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Type string `xml:"type,attr"`
				} `xml:"failure"`
				Error *struct {
					Type string `xml:"type,attr"`
				} `xml:"error"`
				Skipped *struct{} `xml:"skipped"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(readFile(t, path)), &doc); err != nil {
		t.Fatal(err)
	}
	s := doc.Suite
	if doc.Failures != 1 || doc.Errors != 1 || s.Failures != 1 || s.Errors != 1 || s.Skipped != 1 || len(s.Cases) != 3 {
		t.Fatalf("counts: %+v", doc)
	}
	if c := s.Cases[0]; c.Failure == nil || c.Error != nil || c.Failure.Type != "not_found" {
		t.Errorf("page failure: %+v", c)
	}
	if c := s.Cases[1]; c.Error == nil || c.Failure != nil || c.Error.Type != "unavailable" {
		t.Errorf("browser down: %+v", c)
	}
	if c := s.Cases[2]; c.Skipped == nil {
		t.Errorf("never reached: %+v", c)
	}
}
