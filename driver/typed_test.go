package driver_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
)

// The typed actions reach the page as Act does, gate included: the form
// is counted at the server, not trusted from the outcome.
func TestTypedActions(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/order" {
			r.ParseForm()
			mu.Lock()
			got = append(got, r.PostForm.Encode())
			mu.Unlock()
			w.Write([]byte("<h1>Thanks</h1>"))
			return
		}
		w.Write([]byte(`<form method="post" action="/order">
<label>Name <input name="name"></label>
<label>Size <select name="size"><option>S</option><option>M</option><option>L</option></select></label>
<label><input type="checkbox" name="gift"> Gift wrap</label>
<textarea aria-label="Note" name="note"></textarea>
<button>Place order</button></form>`))
	}))
	t.Cleanup(srv.Close)
	s, ctx := newSession(t)
	if _, err := s.Navigate(ctx, srv.URL+"/"); err != nil {
		t.Fatal(err)
	}
	outline, err := s.Outline(ctx)
	if err != nil || !strings.Contains(outline, `button "Place order"`) {
		t.Fatalf("outline: %v\n%s", err, outline)
	}
	quick := driver.WithTimeout(2 * time.Second)
	steps := []func() (*calls.Outcome, error){
		func() (*calls.Outcome, error) { return s.Fill(ctx, "label=Name", "Ann", quick) },
		func() (*calls.Outcome, error) { return s.Select(ctx, "label=Size", []string{"L"}) },
		func() (*calls.Outcome, error) { return s.Check(ctx, "label=Gift wrap") },
		func() (*calls.Outcome, error) { return s.Type(ctx, `role=textbox[name="Note"]`, "ring twice") },
	}
	for i, step := range steps {
		if _, err := step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	order := `role=button[name="Place order"]`
	_, err = s.Click(ctx, order, driver.AskBeforeSubmit())
	a, ok := calls.ApprovalOf(err)
	if !errors.Is(err, calls.ErrNeedsApproval) || !ok {
		t.Fatalf("a submit asked first: %v", err)
	}
	mu.Lock()
	sent := len(got)
	mu.Unlock()
	if sent != 0 {
		t.Fatalf("the form reached the server before approval: %q", got)
	}
	if _, err := s.Click(ctx, order, driver.AskBeforeSubmit(), driver.WithApproval(a)); err != nil {
		t.Fatalf("approved click: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := "gift=on&name=Ann&note=ring+twice&size=L"; len(got) != 1 || got[0] != want {
		t.Fatalf("the server got %q, want one %q", got, want)
	}
}
