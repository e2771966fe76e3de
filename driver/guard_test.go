package driver_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/internal/policy"
)

// fakeResolver maps names to addresses for the private-network check.
type fakeResolver map[string][]netip.Addr

func (f fakeResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := f[host]; ok {
		return a, nil
	}
	return nil, errors.New("no such host " + host)
}

// TestGuardRefusesWhereThePageMayNotGo starts its own browser with a
// strict policy: loopback refused ("none"), and names mapped to loopback in
// Chromium (--host-resolver-rules) and in the policy's resolver as a
// private address, so every request stays on this machine.
func TestGuardRefusesWhereThePageMayNotGo(t *testing.T) {
	t.Parallel()
	path := browsertest.Chrome(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	var srvURL string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/hop":
			http.Redirect(w, r, "http://intranet.test:"+r.URL.Query().Get("port")+"/secret", http.StatusFound)
		case "/ads":
			http.Redirect(w, r, "http://ads.blocked.test:"+r.URL.Query().Get("port")+"/", http.StatusFound)
		default:
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<title>Start</title><a id=l href="/hop?port=`+r.URL.Query().Get("port")+`">Intranet</a>`)
		}
	}))
	defer srv.Close()
	srvURL = srv.URL
	port := srvURL[strings.LastIndexByte(srvURL, ':')+1:]

	pol, err := policy.New(policy.Options{Block: []string{"*.blocked.test"}, PrivateNetwork: policy.AccessLoopback})
	if err != nil {
		t.Fatal(err)
	}
	args := []string{
		// *.test goes to the loopback server; every other name fails to
		// resolve inside the browser, so nothing leaves the machine.
		"--host-resolver-rules=MAP *.test 127.0.0.1 , MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1",
	}
	// For the policy, intranet.test is a private address; public.test is a
	// public one; the browser sends both to the loopback server.
	res := fakeResolver{
		"intranet.test": {netip.MustParseAddr("10.1.2.3")},
		"public.test":   {netip.MustParseAddr("93.184.216.34")},
	}
	b, err := driver.Launch(ctx, driver.Options{ExecPath: path, Args: args, Policy: pol, Resolver: res})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	s, err := b.Session(ctx, "guard")
	if err != nil {
		t.Fatal(err)
	}
	start := "http://public.test:" + port + "/?port=" + port
	if _, err := s.Open(ctx, calls.OpenRequest{URL: start}); err != nil {
		t.Fatalf("open an allowed page: %v", err)
	}
	// A direct open of a refused address never reaches the page.
	if _, err := s.Open(ctx, calls.OpenRequest{URL: "http://intranet.test:" + port + "/secret"}); !errors.Is(err, calls.ErrBlockedURL) {
		t.Fatalf("open a private address: %v", err)
	}
	// A link whose redirect ends at a private address: refused, and the
	// page is back where it was.
	_, err = s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#l"})
	if !errors.Is(err, calls.ErrBlockedURL) || !strings.Contains(err.Error(), "intranet.test") {
		t.Fatalf("a redirect into a private address: %v", err)
	}
	if info, _ := s.PageInfo(ctx); info.URL != start {
		t.Fatalf("after the refusal the tab is on %s, want %s", info.URL, start)
	}
	// A redirect into a blocked host.
	if _, err := s.Open(ctx, calls.OpenRequest{URL: "http://public.test:" + port + "/ads?port=" + port}); !errors.Is(err, calls.ErrBlockedURL) {
		t.Fatalf("a redirect into a blocked host: %v", err)
	}
	if info, _ := s.PageInfo(ctx); info.URL != start {
		t.Fatalf("after the blocked redirect the tab is on %s", info.URL)
	}
}
