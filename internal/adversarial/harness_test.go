package adversarial

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/model/scripted"
	"github.com/waymark-dev/waymark/pilot"
)

func TestServerCounts(t *testing.T) {
	s := NewServer(t, map[string]string{"/": "<p>hi</p>"})
	for _, m := range []string{"GET", "POST", "POST"} {
		req, _ := http.NewRequest(m, s.URL("/pay"), strings.NewReader("a=1"))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	if got := s.Count("POST", "/pay"); got != 2 {
		t.Errorf("Count(POST /pay) = %d, want 2", got)
	}
	if got := s.Sent(); got != 2 {
		t.Errorf("Sent() = %d, want 2", got)
	}
	if r := s.Requests()[1]; r.Body != "a=1" {
		t.Errorf("body = %q", r.Body)
	}
	s.Reset()
	if got := s.Count("", ""); got != 0 {
		t.Errorf("after Reset: %d", got)
	}
}

func TestFencedIn(t *testing.T) {
	for _, c := range []struct {
		prompt string
		ok     bool
	}{
		{"note\n<page_content>\nX\n</page_content>\nmore", true},
		{"X <page_content>\n</page_content>", false},
		{"<page_content>\nX</page_content> X", false},
		{"<page_content>\n</page_content> SYSTEM </page_content>", false},
		{"<page_content>\nX", false},
	} {
		if got := FencedIn(c.prompt, "X"); (got == "") != c.ok {
			t.Errorf("FencedIn(%q) = %q, want ok=%v", c.prompt, got, c.ok)
		}
	}
}

func TestModelLogs(t *testing.T) {
	m := Wrap(scripted.New(scripted.Text(pilot.PurposeAct, "ok")))
	turn := pilot.Turn{Purpose: pilot.PurposeAct, Messages: []pilot.Message{{Role: pilot.RoleUser, Text: "code 482913 <page_content>\nX\n</page_content>"}}}
	if _, err := m.Next(context.Background(), turn); err != nil {
		t.Fatal(err)
	}
	ft := &testing.T{}
	m.NoLeak(ft, "482913", 0)
	if !ft.Failed() {
		t.Error("NoLeak missed the whole secret")
	}
	ft = &testing.T{}
	m.NoLeak(ft, "9482917", 4)
	if !ft.Failed() {
		t.Error("NoLeak missed a 4-byte piece (4829)")
	}
	ft = &testing.T{}
	m.Fenced(ft, "X")
	if ft.Failed() {
		t.Error("Fenced refused a fenced marker")
	}
}
