package adversarial

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/siteapi"
)

// TestAPICallResultMasksSecrets: siteapi.Call now returns the wire's result
// itself (calls.APICallResult), not a copy the driver made field by field.
// A site that knows a value the person typed as a secret echoes it in
// everything an API call hands back: a row, the first page's ETag and
// Last-Modified; and a recipe may carry it in its own validators, which a
// 304 hands back as the result's. None of it may reach the caller.
func TestAPICallResultMasksSecrets(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<!doctype html><title>Notes</title><label>Memo <input name="memo"></label>`)
		case "/api/notes":
			if r.Header.Get("If-None-Match") != "" {
				w.WriteHeader(http.StatusNotModified)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("ETag", `"`+typedSecret+`"`)
			w.Header().Set("Last-Modified", typedSecret)
			b, _ := json.Marshal(map[string]any{"items": []map[string]string{{"title": "note: " + typedSecret}}})
			w.Write(b)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	s, ctx := secretSession(t, srv.URL+"/")
	if _, err := s.FillForm(ctx, calls.FormFillRequest{Secrets: map[string]string{"memo": typedSecret}}); err != nil {
		t.Fatal(err)
	}
	recipe := func(v *siteapi.Validators) json.RawMessage {
		r := &siteapi.Recipe{Format: siteapi.Format, Site: srv.URL, Page: srv.URL + "/",
			Request: siteapi.Request{Method: "GET", URL: srv.URL + "/api/notes"}, Rows: "/items",
			Fields: []siteapi.Field{{Name: "name", Path: "/title"}}, Validators: v}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	fresh, err := s.CallAPI(ctx, calls.APICallRequest{Recipe: recipe(nil), Fresh: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(fresh.Rows) != 1 || fresh.ETag == "" || fresh.LastModified == "" {
		t.Fatalf("the call read %+v; want one row and both validators", fresh)
	}
	unchanged, err := s.CallAPI(ctx, calls.APICallRequest{Recipe: recipe(&siteapi.Validators{ETag: `"` + typedSecret + `"`, LastModified: typedSecret})})
	if err != nil {
		t.Fatal(err)
	}
	if !unchanged.Unchanged || unchanged.ETag == "" {
		t.Fatalf("the call with the recipe's validators read %+v; want unchanged, with them", unchanged)
	}
	noSpelling(t, typedSecret, map[string]string{
		"a fresh call's result":      jsonOf(fresh),
		"an unchanged call's result": jsonOf(unchanged),
	})
}
