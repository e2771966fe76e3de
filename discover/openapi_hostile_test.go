package discover

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

// hostileDesc is a description of about 2 MB: schemas that each refer to
// the next two and the first (graph), or 13,000 paths whose parameter and
// response are $refs (paths).
func hostileDesc(graph bool) []byte {
	var b strings.Builder
	head := `{"openapi":"3.0.0","info":{"title":"t","version":"1"},`
	if !graph {
		b.WriteString(head + `"paths":{`)
		for i := 0; b.Len() < 2<<20; i++ {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"/p%d/{id}":{"get":{"operationId":"op%d","parameters":[{"$ref":"#/components/parameters/Q"}],"responses":{"200":{"$ref":"#/components/responses/R"}}}}`, i, i)
		}
		b.WriteString(`},"components":{"parameters":{"Q":{"name":"q","in":"query","required":true,"schema":{"type":"string"}}},"responses":{"R":{"description":"x","content":{"application/json":{"schema":{"$ref":"#/components/schemas/S"}}}}},"schemas":{"S":{"type":"object","properties":{"a":{"$ref":"#/components/schemas/S"}}}}}}`)
		return []byte(b.String())
	}
	b.WriteString(head + `"paths":{"/a":{"get":{"responses":{"200":{"description":"x","content":{"application/json":{"schema":{"$ref":"#/components/schemas/S0"}}}}}}}},"components":{"schemas":{`)
	n := 0
	for ; b.Len() < 2<<20; n++ {
		if n > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"S%d":{"type":"object","properties":{"a":{"$ref":"#/components/schemas/S%d"},"b":{"$ref":"#/components/schemas/S%d"},"c":{"$ref":"#/components/schemas/S0"}}}`, n, n+1, n+2)
	}
	fmt.Fprintf(&b, `,"S%d":{"type":"string"},"S%d":{"type":"string"}}}}`, n, n+1)
	return []byte(b.String())
}

// TestOpenAPIHostileIsBounded: a site's 2 MB description built to be
// costly is read with bounded memory, and still gives what discovery
// reads. libopenapi, given it whole, built what discovery never reads:
// 170 and 280 MB for these (at 5 MB: 445 and 713 MB, and 20 to 60 s of
// a loaded machine's CPU); pruned, 46 and 96 MB (at 5 MB: 113 and 165 MB
// in half a second). Not parallel: it counts the process's allocations.
func TestOpenAPIHostileIsBounded(t *testing.T) {
	for _, graph := range []bool{true, false} {
		b := hostileDesc(graph)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		api, err := readOpenAPI(b)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatalf("graph %v: %v", graph, err)
		}
		mb := (after.TotalAlloc - before.TotalAlloc) >> 20
		t.Logf("graph %v: %d MB of description, %d MB allocated", graph, len(b)>>20, mb)
		if mb > 140 {
			t.Errorf("graph %v: reading %d MB of description allocated %d MB", graph, len(b)>>20, mb)
		}
		if len(api.gets) == 0 || !api.gets[0].json || (!graph && (len(api.gets) != maxOpenAPIPaths || len(api.gets[0].query) != 1)) {
			t.Errorf("graph %v: read %d GETs, the first %+v", graph, len(api.gets), api.gets[0])
		}
	}
}

// TestOpenAPIRefsReachNothing: a $ref to a URL (a server on loopback), a
// file URL or a path beside the working folder is never read, wherever
// the description puts it; YAML anchors expanded a billion times are
// refused or left out; nesting past YAML's depth is refused.
func TestOpenAPIRefsReachNothing(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write([]byte(`{"name":"leak","in":"query","required":true,"description":"x","content":{"application/json":{}}}`))
	}))
	defer srv.Close()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "r.json"), []byte(`{"name":"leak","in":"query","required":true,"description":"x","content":{"application/json":{}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	var paths []string
	for i, ref := range []string{srv.URL + "/r.json", "file://" + dir + "/r.json", dir + "/r.json", "r.json", "./r.json#/"} {
		paths = append(paths, fmt.Sprintf(`"/r%d":{"parameters":[{"$ref":%q}],"get":{"parameters":[{"$ref":%q}],"responses":{"200":{"$ref":%q}}}}`, i, ref, ref, ref))
	}
	desc := `{"openapi":"3.0.0","info":{"title":"t","version":"1"},"paths":{` + strings.Join(paths, ",") + `}}`
	api, err := readOpenAPI([]byte(desc))
	if err == nil {
		for _, g := range api.gets {
			if g.json || len(g.query) > 0 {
				t.Errorf("%s read what its $ref names: %+v", g.path, g)
			}
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("a $ref reached a server on loopback %d times", n)
	}

	var y strings.Builder
	y.WriteString("openapi: 3.0.0\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n      parameters:\n        - &a0 {name: lol, in: query}\n")
	for i := 1; i < 10; i++ {
		fmt.Fprintf(&y, "        - &a%d [*a%d,*a%d,*a%d,*a%d,*a%d,*a%d,*a%d,*a%d,*a%d,*a%d]\n", i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	y.WriteString("        - *a9\n      responses: {'200': {description: x, content: {application/json: {}}}}\n")
	if _, err := readOpenAPI([]byte(y.String())); err == nil {
		t.Error("a billion laughs in the parameters was read")
	}
	deep := strings.Repeat(`{"a":`, 100000) + "1" + strings.Repeat("}", 100000)
	if _, err := readOpenAPI([]byte(`{"openapi":"3.0.0","info":{"title":"t","version":"1"},"paths":{"/a":{"get":{"parameters":[` + deep + `]}}}}`)); err == nil {
		t.Error("nesting 100,000 deep was read")
	}
}
