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

// TestSheetWriteFakeSheetLoginForm: a page that dresses a login form as
// Jspreadsheet (the marker is a class any page can have) must not get a
// form submitted by sheet write's Enter, which needs no approval: the
// write refuses a cell whose editor is a field of a form, and nothing is
// posted.
func TestSheetWriteFakeSheetLoginForm(t *testing.T) {
	var mu sync.Mutex
	var posts []string
	page := `<!doctype html><title>Sign in</title>
<div class="jss_worksheet"><form method="post" action="/login"><table>
<tr><td data-x="0" data-y="0" style="width:200px;height:30px;padding:0"><input name="user" style="width:100%;height:100%;box-sizing:border-box"></td></tr>
</table></form></div>`
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
	_, err := s.SheetWrite(ctx, calls.SheetWriteRequest{Cell: "A1", Value: "alice"})
	mu.Lock()
	defer mu.Unlock()
	if len(posts) > 0 {
		t.Fatalf("sheet write submitted the page's form without approval: %q (err %v)", posts, err)
	}
	if calls.Code(err) != "not_interactable" || !strings.Contains(err.Error(), "a form submission (POST") {
		t.Fatalf("sheet write into a form's field: %v", err)
	}
}
