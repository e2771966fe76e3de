package driver_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// TestStorageAndCookiesMaskATypedSecret: a page that keeps what was typed
// as a secret in its local storage and a cookie does not hand it back
// through the session's own reads (the Go API's, not only the daemon's),
// nor through a saved state, which reads both.
func TestStorageAndCookiesMaskATypedSecret(t *testing.T) {
	t.Parallel()
	const pin = "8841-2207-5531"
	srv := serve(t, map[string]string{"/": `<title>Keep</title><label>PIN <input id=pin oninput="localStorage.setItem('pin', this.value); document.cookie='pin=' + this.value"></label>`})
	s, ctx := newSession(t)
	open(t, s, ctx, srv.URL+"/")
	if _, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActFill, Target: "label=PIN", Value: pin, Secret: "pin"}); err != nil {
		t.Fatal(err)
	}
	st, err := s.Storage(ctx, calls.StorageRequest{Area: "local", Op: "get"})
	if err != nil {
		t.Fatal(err)
	}
	ck, err := s.Cookies(ctx, calls.CookieRequest{Op: "get"})
	if err != nil {
		t.Fatal(err)
	}
	state, err := s.StateSave(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal([]any{st, ck, state})
	if strings.Contains(string(b), pin) || strings.Count(string(b), "«secret:pin»") != 4 {
		t.Fatalf("storage, cookies and the saved state (want the mark four times): %s", b)
	}
}
