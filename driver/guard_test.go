package driver_test

import (
	"context"
	"errors"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/policy"
)

// fakeResolver maps names to addresses for the private-network check.
type fakeResolver map[string][]netip.Addr

func (f fakeResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := f[host]; ok {
		return a, nil
	}
	return nil, errors.New("no such host " + host)
}

// dialLog is the Dial seam of the tests that let the browser's proxy run:
// it records the address each connection was meant for and connects to
// the same port on loopback instead, so nothing leaves the machine.
type dialLog struct {
	mu    sync.Mutex
	addrs []string
}

func (d *dialLog) toLoopback(ctx context.Context, network, addr string) (net.Conn, error) {
	d.mu.Lock()
	d.addrs = append(d.addrs, addr)
	d.mu.Unlock()
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	var dl net.Dialer
	return dl.DialContext(ctx, network, net.JoinHostPort("127.0.0.1", port))
}

func (d *dialLog) seen() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.addrs)
}

// guardedSession launches a browser of the test's own with opts (its
// proxy's connections sent to loopback by a dialLog) and opens a session;
// both close when the test ends.
func guardedSession(t *testing.T, ctx context.Context, path string, opts driver.Options, name string) (*driver.Session, *dialLog) {
	t.Helper()
	dials := &dialLog{}
	opts.ExecPath, opts.Dial = path, dials.toLoopback
	b, err := driver.Launch(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	s, err := b.Session(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	return s, dials
}

// TestGuardPausesADocumentOnce: a tab's document, and its iframe's, is
// paused once before it goes out, by the browser target's guard: a second
// pause by the tab itself cost each navigation ~3 ms and ~6 ms of the
// browser's CPU (bench/cmd/cdpfloor -modes fetch1,fetch).
func TestGuardPausesADocumentOnce(t *testing.T) {
	t.Parallel()
	srv := serve(t, map[string]string{
		"/":           `<!doctype html><title>Start</title><p>start`,
		"/once":       `<!doctype html><title>Once</title><iframe src="/once-frame"></iframe>`,
		"/once-frame": `<!doctype html><p>frame`,
	})
	s, ctx := newSession(t)
	open(t, s, ctx, srv.URL+"/")
	stop, err := driver.CountPauses(ctx, s, "/once")
	if err != nil {
		t.Fatal(err)
	}
	open(t, s, ctx, srv.URL+"/once") // returns once the page and its frame have loaded
	got := stop()
	if want := map[string]int{"browser": 2}; !maps.Equal(got, want) {
		t.Fatalf("pauses of the page and its frame: %v, want %v", got, want)
	}
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
	apiRelease := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/hop":
			http.Redirect(w, r, "http://intranet.test:"+r.URL.Query().Get("port")+"/secret", http.StatusFound)
		case "/ads":
			http.Redirect(w, r, "http://ads.blocked.test:"+r.URL.Query().Get("port")+"/", http.StatusFound)
		case "/api":
			select { // answered once the click that asked has returned
			case <-apiRelease:
			case <-r.Context().Done():
				return
			}
			io.WriteString(w, `{}`)
		default:
			w.Header().Set("Content-Type", "text/html")
			p := r.URL.Query().Get("port")
			io.WriteString(w, `<title>Start</title><a id=l href="/hop?port=`+p+`">Intranet</a>`+
				`<button id=b onclick="fetch('/api').then(() => { location.href = '/hop?port=`+p+`' })">Later</button>`)
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
	s, dials := guardedSession(t, ctx, path, driver.Options{Args: args, Policy: pol, Resolver: res}, "guard")
	defer func() {
		for _, a := range dials.seen() {
			if strings.HasPrefix(a, "10.") {
				t.Errorf("the proxy dialled the refused address %s", a)
			}
		}
	}()
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
	// A navigation the page starts once the click's request is answered is
	// judged while the next command waits for the click's settle
	// (pending.go): that command tells the refusal, as coming from the
	// click, and the page is back where it was.
	if _, err := s.Open(ctx, calls.OpenRequest{URL: start}); err != nil {
		t.Fatal(err)
	}
	if out, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#b"}); err != nil || out.Navigated {
		t.Fatalf("a click whose request is not answered yet: %+v, %v", out, err)
	}
	close(apiRelease)
	_, err = s.Snapshot(ctx, calls.SnapshotRequest{})
	if !errors.Is(err, calls.ErrBlockedURL) || !strings.Contains(err.Error(), "after the last action") || !strings.Contains(err.Error(), "intranet.test") {
		t.Fatalf("the look after a click whose later navigation was refused: %v", err)
	}
	if info, _ := s.PageInfo(ctx); info.URL != start {
		t.Fatalf("after the later refusal the tab is on %s", info.URL)
	}
	if _, err := s.Snapshot(ctx, calls.SnapshotRequest{}); err != nil {
		t.Fatalf("the refusal is told once; the next look: %v", err)
	}
}

// rebinder answers a name with a public address the first time and a
// private one every time after, as a hostile DNS server does to get past
// a check made before the browser connects (DNS rebinding).
type rebinder struct {
	mu    sync.Mutex
	calls map[string]int
}

func (r *rebinder) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls[host]++
	switch {
	case host == "rebind.test" && r.calls[host] == 1:
		return []netip.Addr{netip.MustParseAddr("93.184.216.34")}, nil
	case host == "rebind.test", host == "sneaky.test":
		return []netip.Addr{netip.MustParseAddr("10.9.8.7")}, nil
	}
	return nil, errors.New("no such host " + host)
}

// TestGuardConnectsWhereItChecked: the browser reaches a name at the
// address the navigation's check judged, never at the private address
// the name gives on its next lookup; and a page's own request to a name
// that resolves to a private address is refused too. Chromium here
// resolves nothing itself (every name maps to NOTFOUND), so a page that
// loads at all was loaded through the daemon's proxy.
func TestGuardConnectsWhereItChecked(t *testing.T) {
	t.Parallel()
	path := browsertest.Chrome(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var sneaky atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/x":
			sneaky.Add(1)
			w.Header().Set("Access-Control-Allow-Origin", "*")
			io.WriteString(w, "private data")
		default:
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<title>Rebind</title><p>public page</p>`)
		}
	}))
	defer srv.Close()
	port := srv.URL[strings.LastIndexByte(srv.URL, ':')+1:]

	res := &rebinder{calls: map[string]int{}}
	s, dials := guardedSession(t, ctx, path, driver.Options{Resolver: res, Args: []string{"--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1"}}, "rebind")
	start := "http://rebind.test:" + port + "/"
	info, err := s.Open(ctx, calls.OpenRequest{URL: start})
	if err != nil || info.Title != "Rebind" {
		t.Fatalf("open %s: %+v, %v", start, info, err)
	}
	public := net.JoinHostPort("93.184.216.34", port)
	if got := dials.seen(); len(got) == 0 || slices.ContainsFunc(got, func(a string) bool { return a != public }) {
		t.Fatalf("the browser's connections went to %q, want only %s (the address that was checked)", got, public)
	}
	res.mu.Lock()
	lookups := res.calls["rebind.test"]
	res.mu.Unlock()
	if lookups != 1 {
		t.Fatalf("rebind.test was looked up %d times, want once: the connection must use the check's answer", lookups)
	}

	// The page asks a name that resolves to a private address: refused at
	// the proxy, and the server never hears of it.
	v, err := s.Eval(ctx, calls.EvalRequest{MainWorld: true, Expression: `fetch('http://sneaky.test:` + port + `/x').then(r => r.status, e => 'failed')`})
	if err != nil {
		t.Fatal(err)
	}
	if string(v.Value) == "200" || sneaky.Load() != 0 {
		t.Fatalf("a page reached a private address: fetch said %s, the server saw %d requests", v.Value, sneaky.Load())
	}
	// Nor may it reach the cloud metadata address, which Chromium would
	// send around a proxy if waymark let it.
	if v, err := s.Eval(ctx, calls.EvalRequest{MainWorld: true, Expression: `fetch('http://169.254.169.254:` + port + `/x').then(r => r.status, e => 'failed')`}); err != nil || string(v.Value) == "200" {
		t.Fatalf("fetch of the metadata address: %s, %v", v.Value, err)
	}
	for _, a := range dials.seen() {
		if strings.HasPrefix(a, "10.") || strings.HasPrefix(a, "169.254.") {
			t.Fatalf("the proxy dialled %s", a)
		}
	}
	if sneaky.Load() != 0 {
		t.Fatalf("the server saw %d requests meant for private addresses", sneaky.Load())
	}

	// While its pin lasts, the next navigation to the name goes to the
	// same judged address without asking DNS again (whose next answer is
	// private); after it, the name is judged afresh (netguard's tests).
	if info, err := s.Open(ctx, calls.OpenRequest{URL: start + "again"}); err != nil || info.Title != "Rebind" {
		t.Fatalf("open again: %+v, %v", info, err)
	}
	res.mu.Lock()
	lookups = res.calls["rebind.test"]
	res.mu.Unlock()
	for _, a := range dials.seen() {
		if a != public {
			t.Fatalf("the browser's connections went to %q, want only %s", dials.seen(), public)
		}
	}
	if lookups != 1 {
		t.Fatalf("rebind.test was looked up %d times, want once", lookups)
	}
}

// TestGuardProxiesHTTPS: an https page goes through the daemon's proxy as
// a CONNECT tunnel to the address that was judged.
func TestGuardProxiesHTTPS(t *testing.T) {
	t.Parallel()
	path := browsertest.Chrome(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<title>Secure</title><p>over TLS</p>`)
	}))
	defer srv.Close()
	port := srv.URL[strings.LastIndexByte(srv.URL, ':')+1:]
	res := fakeResolver{"secure.test": {netip.MustParseAddr("93.184.216.34")}}
	s, dials := guardedSession(t, ctx, path, driver.Options{Resolver: res, Args: []string{"--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1", "--ignore-certificate-errors"}}, "tls")
	info, err := s.Open(ctx, calls.OpenRequest{URL: "https://secure.test:" + port + "/"})
	if err != nil || info.Title != "Secure" {
		t.Fatalf("open over TLS: %+v, %v", info, err)
	}
	if got := dials.seen(); len(got) == 0 || got[0] != net.JoinHostPort("93.184.216.34", port) {
		t.Fatalf("dialled %q", got)
	}
}
