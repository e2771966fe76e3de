package siteapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/capture"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/siteapi"
)

// cachingApp is an application that keeps its own copy of its list: the
// first visit fetches /api/lamps and stores the answer in Cache Storage
// and each lamp in IndexedDB; a later visit shows the list from them and
// sends nothing. It counts the calls of its API.
func cachingApp(hits *atomic.Int32) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/api/lamps", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"lamps":[{"sku":"L1","name":"Arc lamp","price":"$42.00"},{"sku":"L2","name":"Desk lamp","price":"$19.50"},{"sku":"L3","name":"Floor lamp","price":"$88.00"}]}`)
	})
	mux.HandleFunc("/blank", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>Blank</title><p>nothing cached here</p>`)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>Lamps</title><ul id="lamps"></ul><script>
const show = (lamps) => {
  document.getElementById('lamps').innerHTML = lamps.map((l) => '<li><b>' + l.name + '</b> <i>' + l.price + '</i></li>').join('');
  // From here on, any script reading the storage in the page's world
  // leaves a mark.
  const mark = (proto, names) => { for (const n of names) { const f = proto[n]; proto[n] = function (...a) { document.body.dataset.touched = n; return f.apply(this, a); }; } };
  mark(CacheStorage.prototype, ['open', 'match', 'keys', 'has']);
  mark(Cache.prototype, ['match', 'matchAll', 'keys']);
  mark(IDBFactory.prototype, ['open', 'databases']);
  mark(IDBObjectStore.prototype, ['get', 'getAll', 'openCursor']);
  document.body.dataset.loaded = 'yes';
};
const db = () => new Promise((ok, bad) => {
  const req = indexedDB.open('shop', 1);
  req.onupgradeneeded = () => req.result.createObjectStore('lamps', {keyPath: 'sku'});
  req.onsuccess = () => ok(req.result);
  req.onerror = () => bad(req.error);
});
(async () => {
  const cache = await caches.open('lamps-v1');
  const hit = await cache.match('/api/lamps');
  if (hit) { show((await hit.json()).lamps); return; }
  const res = await fetch('/api/lamps');
  await cache.put('/api/lamps', res.clone());
  const data = await res.json();
  const d = await db();
  await new Promise((ok) => { const tx = d.transaction('lamps', 'readwrite'); for (const l of data.lamps) tx.objectStore('lamps').put(l); tx.oncomplete = ok; });
  show(data.lamps);
})();
</script>`)
	})
	return mux
}

// stopCapture ends the session's capture and reads the file.
func stopCapture(t *testing.T, s *driver.Session) *capture.File {
	t.Helper()
	res, err := s.StopCapture(t.Context(), calls.CaptureStopRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var f capture.File
	if err := json.Unmarshal(res.Capture, &f); err != nil {
		t.Fatal(err)
	}
	return &f
}

// TestLearnFromTheAppsOwnCache: a list the page shows from the answers
// it cached for itself (Cache Storage, IndexedDB), with no request while
// the capture ran, is learned from those: they are ranked beside the
// network's answers, say where they came from, and the call found in the
// cache is verified by a direct call (counted at the server). Another
// session on the same site sees none of them.
func TestLearnFromTheAppsOwnCache(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(cachingApp(&hits))
	defer srv.Close()
	s, ctx := drivertest.Session(t, "cached", 60*time.Second)
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Wait(ctx, calls.WaitRequest{Selector: "body[data-loaded=yes]"}); err != nil {
		t.Fatal(err)
	}
	if hits.Load() != 1 {
		t.Fatalf("the first visit called the API %d times", hits.Load())
	}
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
	if hits.Load() != 1 {
		t.Fatalf("the visit from the cache called the API (%d calls)", hits.Load())
	}
	if v, err := s.Get(ctx, calls.GetRequest{What: "attr", Target: "css=body", Name: "data-touched"}); err != nil || v.Value != "" {
		t.Fatalf("reading the caches ran script in the page's world (%q, %v)", v.Value, err)
	}
	rows := []map[string]any{{"name": "Arc lamp", "price": "$42.00"}, {"name": "Desk lamp", "price": "$19.50"}, {"name": "Floor lamp", "price": "$88.00"}}
	r, rep, err := siteapi.LearnCall(ctx, s, f, rows, siteapi.LearnOptions{})
	if err != nil {
		b, _ := json.MarshalIndent(rep, "", " ")
		t.Fatalf("learn: %v\n%s\ncached: %+v", err, b, f.Cached)
	}
	if r.Request.URL != srv.URL+"/api/lamps" || r.Rows != "/lamps" || !r.Learned.Verified {
		t.Errorf("recipe: %s %s at %q, verified %v", r.Request.Method, r.Request.URL, r.Rows, r.Learned.Verified)
	}
	if hits.Load() != 2 {
		t.Errorf("the server saw %d calls, want 2 (the first visit, the verifying call)", hits.Load())
	}
	t.Logf("ranked: %+v", rep.Ranked)
	sources := map[string]siteapi.Ranked{}
	for _, rk := range rep.Ranked {
		sources[rk.Source] = rk
	}
	if c := sources[siteapi.SourceCacheStorage]; c.Rows != 3 || !strings.Contains(c.Exchange, "lamps-v1") {
		t.Errorf("cache storage: %+v (ranked %+v)", c, rep.Ranked)
	}
	if c := sources[siteapi.SourceIndexedDB]; c.Rows != 3 || !strings.Contains(c.Exchange, "shop/lamps") {
		t.Errorf("indexeddb: %+v (ranked %+v)", c, rep.Ranked)
	}

	// Another session on the same site: its own storage, empty.
	other, _ := drivertest.Session(t, "cached-other", 30*time.Second)
	if _, err := other.Open(ctx, calls.OpenRequest{URL: srv.URL + "/blank"}); err != nil {
		t.Fatal(err)
	}
	if _, err := other.StartCapture(ctx, calls.CaptureStartRequest{}); err != nil {
		t.Fatal(err)
	}
	if g := stopCapture(t, other); len(g.Cached) != 0 {
		t.Errorf("another session read this one's caches: %+v", g.Cached)
	}
}
