package siteapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/siteapi"
)

// The shipped script, minified, and its source map, written by hand so
// the test does not read its own encoder: line 1 of app.min.js maps to
// src/lamps.ts (segments at columns 0, 13, 20 and 58 map to 2:0, 3:2,
// 3:9 and 5:0, 0-based).
const (
	minJS     = `function a(){return fetch("/api/lamps").then(r=>r.json())}a().then(show);` + "\n//# sourceMappingURL=app.min.js.map\n"
	lampsTS   = "// The lamps on the shelf.\nexport async function loadLamps(): Promise<Lamp[]> {\n  return fetch(\"/api/lamps\").then((r) => r.json());\n}\nloadLamps().then(show);\n"
	lampsPage = `<!doctype html><title>Lamps</title><ul id="lamps"></ul><script>
function show(d) { document.getElementById('lamps').innerHTML = d.lamps.map((l) => '<li>' + l.name + '</li>').join(''); document.body.dataset.loaded = 'yes'; }
</script><script src="/app.min.js"></script>`
)

// TestSenderBySourceMap: api learn names the code that sent the call by
// the site's source map: the file and line it was written at and its
// function, not the minified place. The map is fetched once, from the
// tab (counted at the server).
func TestSenderBySourceMap(t *testing.T) {
	var maps atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/api/lamps", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"lamps":[{"name":"Arc lamp"},{"name":"Desk lamp"}]}`)
	})
	mux.HandleFunc("/app.min.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		fmt.Fprint(w, minJS)
	})
	mux.HandleFunc("/app.min.js.map", func(w http.ResponseWriter, r *http.Request) {
		maps.Add(1)
		b, _ := json.Marshal(map[string]any{"version": 3, "file": "app.min.js", "sources": []string{"src/lamps.ts"},
			"sourcesContent": []string{lampsTS}, "names": []string{}, "mappings": "AACA,aACE,OAAO,sCAET"})
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, lampsPage) })
	srv := httptest.NewServer(mux)
	defer srv.Close()

	s, ctx := drivertest.Session(t, "sender", 60*time.Second)
	if _, err := s.StartCapture(ctx, calls.CaptureStartRequest{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Wait(ctx, calls.WaitRequest{Selector: "body[data-loaded=yes]"}); err != nil {
		t.Fatal(err)
	}
	f := stopCapture(t, s)
	rows := []map[string]any{{"name": "Arc lamp"}, {"name": "Desk lamp"}}
	r, rep, err := siteapi.LearnCall(ctx, s, f, rows, siteapi.LearnOptions{})
	if err != nil {
		t.Fatalf("learn: %v", err)
	}
	if want := "src/lamps.ts:3:10 loadLamps"; rep.Sender != want || r.Learned.Sender != want {
		var init string
		for _, x := range f.Exchanges {
			if x.ID == r.Learned.Exchange {
				init = x.Initiator
			}
		}
		t.Errorf("sender %q (recipe %q), want %q; the initiator was %q", rep.Sender, r.Learned.Sender, want, init)
	}
	if maps.Load() != 1 {
		t.Errorf("the map was fetched %d times, want 1", maps.Load())
	}
}
