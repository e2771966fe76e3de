package pilot_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/pilot"
)

// countingModel answers every extract turn with an empty list and counts
// the calls.
type countingModel struct{ calls atomic.Int32 }

func (m *countingModel) Next(ctx context.Context, turn pilot.Turn) (pilot.Reply, error) {
	m.calls.Add(1)
	return pilot.Reply{Data: json.RawMessage(`[]`), Model: "counting"}, nil
}

// TestExtractHasAChunkBudget: a page too long for the chunk budget (6,000
// elements in 15,000-character parts, as 50,000 are in the default 60,000,
// which took 31 model calls) is read in 8 parts at most, and the result
// says how much of it was left. 6,000 are 16 parts: twice the budget,
// with room, at half the outline work of the 12,000 it had (the test's
// time under race is that work).
func TestExtractHasAChunkBudget(t *testing.T) {
	s, ctx := drivertest.Session(t, t.Name(), 120*time.Second)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		var b strings.Builder
		b.WriteString("<title>Big</title><ul>")
		for i := 0; i < 6000; i++ {
			b.WriteString("<li>Row item with some words</li>")
		}
		b.WriteString("</ul>")
		w.Write([]byte(b.String()))
	}))
	defer srv.Close()
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL}); err != nil {
		t.Fatal(err)
	}
	m := &countingModel{}
	res, err := pilot.New(s, m, &pilot.Options{MaxPageChars: 15000}).Extract(ctx, "the rows", json.RawMessage(`{"type":"array","items":{"type":"string"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if n := m.calls.Load(); n > 8 {
		t.Errorf("%d model calls for one extract, over the budget of 8", n)
	}
	if res.Chunks != 8 || res.Parts <= 8 || !strings.Contains(res.Note, "only the first 8") {
		t.Errorf("result: chunks %d of %d parts, note %q; want the budget said", res.Chunks, res.Parts, res.Note)
	}
	t.Logf("%d parts, %d read, %d model calls", res.Parts, res.Chunks, m.calls.Load())
}
