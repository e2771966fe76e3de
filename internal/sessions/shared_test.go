package sessions

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/rpc"
)

// TestSharedManagersStayApart: two managers over one browser (NewShared)
// each see, close and count only their own sessions; a name one holds is
// refused to the other, as is one open in the browser by someone else;
// closing a manager closes its sessions and leaves the browser and the
// other's sessions running, and frees its names.
func TestSharedManagersStayApart(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("<title>" + r.URL.Path[1:] + "</title><p>here</p>"))
	}))
	t.Cleanup(srv.Close)
	b := drivertest.Driver(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	one, two := NewShared(b), NewShared(b)
	defer one.Close()
	defer two.Close()
	open := func(m *Manager, session, page string) error {
		_, err := m.Handle(ctx, session, calls.MethodOpen, params(t, calls.OpenRequest{URL: srv.URL + "/" + page}))
		return err
	}
	list := func(m *Manager) map[string]string {
		t.Helper()
		res, err := m.Handle(ctx, "", rpc.MethodSessionList, nil)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, s := range res.(rpc.SessionList).Sessions {
			out[s.Name] = s.URL
		}
		return out
	}
	if err := open(one, "shared-a", "one"); err != nil {
		t.Fatal(err)
	}
	if err := open(two, "shared-b", "two"); err != nil {
		t.Fatal(err)
	}
	if err := open(two, "shared-a", "two"); !errors.Is(err, calls.ErrBadInput) {
		t.Errorf("the other manager's session name: %v, want refused", err)
	}
	drivertest.Session(t, "shared-someone", 30*time.Second)
	if err := open(one, "shared-someone", "one"); !errors.Is(err, calls.ErrBadInput) {
		t.Errorf("a session open by someone else: %v, want refused", err)
	}
	if got := list(one); len(got) != 1 || got["shared-a"] != srv.URL+"/one" {
		t.Errorf("one lists %v, want its shared-a only", got)
	}
	if _, n := two.Status(); n != 1 {
		t.Errorf("two counts %d sessions, want 1", n)
	}
	if _, err := two.Handle(ctx, "shared-a", rpc.MethodSessionClose, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := two.Handle(ctx, "", rpc.MethodSessionCloseAll, nil); err != nil {
		t.Fatal(err)
	}
	if _, ok := b.Lookup("shared-a"); !ok {
		t.Fatal("the other manager's session close-all closed one's session")
	}
	if err := one.Close(); err != nil {
		t.Fatal(err)
	}
	if !b.Alive() {
		t.Fatal("closing a manager over a shared browser closed the browser")
	}
	if _, ok := b.Lookup("shared-a"); ok {
		t.Error("a closed manager's session is still open")
	}
	if err := open(two, "shared-a", "two"); err != nil {
		t.Errorf("a name freed by the closed manager: %v", err)
	}
}
