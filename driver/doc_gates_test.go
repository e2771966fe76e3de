package driver_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// TestDocInsertFormDressedAsEditor: a document insert needs no approval,
// so the Enter that starts its line must not send a form: a page whose
// "editor" is a contenteditable inside a form that sends itself on Enter
// gets nothing sent, and the insert fails saying why. Counted at the
// server.
func TestDocInsertFormDressedAsEditor(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var posts []string
	page := `<!doctype html><title>Notes</title>
<form method="post" action="/transfer"><input type="hidden" name="amount" value="1000">
<div class="ql-editor" contenteditable="true"><p>Dear team</p></div></form>
<script>document.querySelector('.ql-editor').addEventListener('keydown', e => {
  if (e.key === 'Enter') document.forms[0].requestSubmit();
});</script>`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			b, _ := io.ReadAll(r.Body)
			mu.Lock()
			posts = append(posts, r.URL.Path+"?"+string(b))
			mu.Unlock()
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, page)
	}))
	t.Cleanup(srv.Close)
	s, ctx := newSession(t)
	open(t, s, ctx, srv.URL+"/")
	_, err := s.DocInsert(ctx, calls.DocInsertRequest{Text: "Thanks", End: true})
	mu.Lock()
	defer mu.Unlock()
	if len(posts) > 0 {
		t.Fatalf("doc insert sent the page's form without approval: %q (err %v)", posts, err)
	}
	if calls.Code(err) != "not_interactable" || !strings.Contains(err.Error(), "typing into the document would send") {
		t.Fatalf("doc insert into a form dressed as an editor: %v", err)
	}
}
