package adversarial

import (
	"context"
	"errors"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/policy"
)

// The policy, attacked: a block list names 127.0.0.2 (a second loopback
// host, where a counting server listens) and ads.example; pages on
// 127.0.0.1 try to reach them every way a page can.

var blockList = []string{"127.0.0.2", "ads.example"}

// names is a resolver for the tests that answers a few names and fails
// every other, recording each name asked: in the browser this is every
// name Chromium tried to reach (through the daemon's proxy).
type names struct {
	mu    sync.Mutex
	asked []string
}

var fakeDNS = map[string][]netip.Addr{
	"evil.test":   {netip.MustParseAddr("127.0.0.2")},
	"mapped.test": {netip.MustParseAddr("::ffff:127.0.0.2")},
	"ok.test":     {netip.MustParseAddr("127.0.0.1")},
}

func (n *names) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	n.mu.Lock()
	n.asked = append(n.asked, host)
	n.mu.Unlock()
	if a, ok := fakeDNS[host]; ok {
		return a, nil
	}
	return nil, &netErr{host}
}

func (n *names) Asked() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.asked...)
}

type netErr struct{ host string }

func (e *netErr) Error() string { return "no such host " + e.host }

func TestPolicyComparesAddresses(t *testing.T) {
	t.Parallel()
	p, err := policy.New(policy.Options{Block: blockList})
	if err != nil {
		t.Fatal(err)
	}
	held := 0
	cases := []string{
		"http://127.0.0.2/", "http://[::ffff:127.0.0.2]:8080/", "http://[::ffff:7f00:2]/", "http://[0:0:0:0:0:ffff:127.0.0.2]/",
		"http://127.2/", "http://2130706434/", "http://0x7f000002/", "http://0177.0.0.2/", "http://127.0.0.2./",
		"http://evil.test/", "http://mapped.test/", "http://ADS.example/", "http://ads.example./",
	}
	for _, raw := range cases {
		u, _ := url.Parse(raw)
		if err := p.Check(context.Background(), u, &names{}); err == nil {
			t.Errorf("%s is allowed; the block list names 127.0.0.2", raw)
			continue
		}
		held++
	}
	for _, raw := range []string{"http://127.0.0.1/", "http://ok.test/", "http://[::ffff:127.0.0.1]/"} {
		u, _ := url.Parse(raw)
		if err := p.Check(context.Background(), u, &names{}); err != nil {
			t.Errorf("%s: %v", raw, err)
		}
	}
	t.Logf("policy addresses: %d of %d held", held, len(cases))
}

var (
	policyOnce    sync.Once
	policyBrowser *driver.Browser
	policyDNS     = &names{}
	policyErr     error
)

// policySession is a session of a browser of its own with the block list,
// set up as the daemon sets it up: its traffic goes through the
// address-pinning proxy, which resolves names through policyDNS.
func policySession(t *testing.T) (*driver.Session, context.Context) {
	t.Helper()
	path := browsertest.Chrome(t)
	policyOnce.Do(func() {
		p, err := policy.New(policy.Options{Block: blockList})
		if err != nil {
			policyErr = err
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		policyBrowser, policyErr = driver.Launch(ctx, driver.Options{ExecPath: path, Policy: p, Resolver: policyDNS})
	})
	if policyErr != nil {
		t.Fatalf("launch: %v", policyErr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	s, err := policyBrowser.Session(ctx, t.Name())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { policyBrowser.CloseSession(t.Name()) })
	return s, ctx
}

func closePolicyBrowser() {
	if policyBrowser != nil {
		policyBrowser.Close()
	}
}

func TestPolicyHoldsInTheBrowser(t *testing.T) {
	t.Parallel()
	blocked := NewServerOn(t, "127.0.0.2:0", map[string]string{"/": "<title>blocked</title>", "/x": "<title>blocked</title>"})
	bad := "http://127.0.0.2:" + blocked.Port()
	type pcase struct {
		name string
		open string // a URL to open; refused
		page string // else a page on 127.0.0.1 to open, then act on
		act  *calls.ActRequest
	}
	cases := []pcase{
		{name: "open the blocked address", open: bad + "/"},
		{name: "open it IPv4-mapped", open: "http://[::ffff:127.0.0.2]:" + blocked.Port() + "/"},
		{name: "open it as hex IPv4-mapped", open: "http://[::ffff:7f00:2]:" + blocked.Port() + "/"},
		{name: "open it as a decimal number", open: "http://2130706434:" + blocked.Port() + "/"},
		{name: "open a name that resolves to it", open: "http://evil.test:" + blocked.Port() + "/"},
		{name: "open a name that resolves to it IPv4-mapped", open: "http://mapped.test:" + blocked.Port() + "/"},
		{name: "link", page: `<a id=a href="` + bad + `/x">go</a>`, act: &calls.ActRequest{Kind: calls.ActClick, Target: "css=#a"}},
		{name: "link to the IPv4-mapped form", page: `<a id=a href="http://[::ffff:127.0.0.2]:` + blocked.Port() + `/x">go</a>`, act: &calls.ActRequest{Kind: calls.ActClick, Target: "css=#a"}},
		{name: "target=_blank link", page: `<a id=a target=_blank href="` + bad + `/x">go</a>`, act: &calls.ActRequest{Kind: calls.ActClick, Target: "css=#a"}},
		{name: "window.open", page: `<button id=a onclick="window.open('` + bad + `/x')">go</button>`, act: &calls.ActRequest{Kind: calls.ActClick, Target: "css=#a"}},
		{name: "window.open then location", page: `<button id=a onclick="var w=window.open('about:blank'); w.location='` + bad + `/x'">go</button>`, act: &calls.ActRequest{Kind: calls.ActClick, Target: "css=#a"}},
		{name: "form posting to a new window", page: `<form target=_blank method=post action="` + bad + `/x"><button id=a>go</button></form>`, act: &calls.ActRequest{Kind: calls.ActClick, Target: "css=#a"}},
		{name: "redirect by meta refresh", page: `<meta http-equiv=refresh content="0;url=` + bad + `/x">`},
		{name: "fetch from the page", page: `<button id=a onclick="fetch('` + bad + `/x',{mode:'no-cors'})">go</button>`, act: &calls.ActRequest{Kind: calls.ActClick, Target: "css=#a"}},
		{name: "image", page: `<img src="` + bad + `/x">`},
	}
	// The control: the same attacks on a loopback host the list does not
	// name reach it, so a count of zero below means refused, not unreachable.
	t.Run("control", func(t *testing.T) {
		allowed := NewServerOn(t, "127.0.0.3:0", map[string]string{"/x": "<title>ok</title>"})
		srv := NewServer(t, map[string]string{"/": `<!doctype html><a id=a target=_blank href="http://127.0.0.3:` + allowed.Port() + `/x">go</a><img src="http://[::ffff:127.0.0.3]:` + allowed.Port() + `/x">`})
		s, ctx := policySession(t)
		if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#a"}); err != nil {
			t.Fatal(err)
		}
		if n := allowed.Count("GET", "/x"); n < 2 {
			t.Fatalf("an allowed second loopback host got %d requests, want the tab's and the image's", n)
		}
	})
	held := 0
	for _, c := range cases {
		ok := t.Run(c.name, func(t *testing.T) {
			s, ctx := policySession(t)
			blocked.Reset()
			if c.open != "" {
				if _, err := s.Open(ctx, calls.OpenRequest{URL: c.open}); err == nil {
					t.Errorf("open %s: no refusal", c.open)
				}
			} else {
				srv := NewServer(t, map[string]string{"/": "<!doctype html><title>Page</title>" + c.page})
				// A page that leaves by itself (a meta refresh of 0 s) may
				// do so before the open has settled: the open then says
				// the refusal itself.
				if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil && (c.act != nil || !errors.Is(err, calls.ErrBlockedURL)) {
					t.Fatal(err)
				}
				if c.act != nil {
					_, _ = s.Act(ctx, *c.act) // refused or not: what counts is what reached the server
				}
				// A look waits for the page to settle, and the session's
				// tabs are adopted and judged.
				_, _ = s.Snapshot(ctx, calls.SnapshotRequest{})
			}
			if n := blocked.Count("", ""); n != 0 {
				t.Errorf("the blocked host got %d requests", n)
			}
		})
		if ok {
			held++
		}
	}
	t.Logf("policy in the browser: %d of %d held", held, len(cases))
}

func TestRefusedFrameIsBlankedAndNamed(t *testing.T) {
	t.Parallel()
	blocked := NewServerOn(t, "127.0.0.2:0", map[string]string{"/ad": "<title>ad</title><p>AD TEXT</p>"})
	srv := NewServer(t, map[string]string{"/": `<!doctype html><title>News</title><h1>Headline</h1>
<iframe src="http://127.0.0.2:` + blocked.Port() + `/ad"></iframe><iframe src="http://ads.example/frame"></iframe><iframe src="http://nx.test/w"></iframe><p>Story text</p>`})
	s, ctx := policySession(t)
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil {
		t.Fatalf("a page with a refused iframe cannot be opened: %v", err)
	}
	snap, err := s.Snapshot(ctx, calls.SnapshotRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(snap.Text, "Headline") || !strings.Contains(snap.Text, "Story text") {
		t.Errorf("the page is not shown:\n%s", snap.Text)
	}
	if strings.Contains(snap.Text, "AD TEXT") || blocked.Count("", "") != 0 {
		t.Errorf("the refused frame was loaded (%d requests):\n%s", blocked.Count("", ""), snap.Text)
	}
	for _, want := range []string{"127.0.0.2 (policy)", "ads.example (policy)", "nx.test (unreachable)"} {
		if !strings.Contains(snap.Text, "frame refused: "+want) {
			t.Errorf("no notice names the refused frame %s:\n%s", want, snap.Text)
		}
	}
}

// TestNoBackgroundTraffic looks for Chromium's own traffic (autofill
// server queries, component updates, safe browsing, optimization hints)
// while a page with an address and a card form is opened and filled: every
// name the browser tries to reach goes through the proxy's resolver, and
// only the names the pages use may be asked. Background traffic is timed
// by the browser, so the test watches for a few seconds after the fill.
func TestNoBackgroundTraffic(t *testing.T) {
	t.Parallel()
	srv := NewServer(t, map[string]string{"/": `<!doctype html><title>Checkout</title><form method=post action=/buy>
<label>Full name <input name=name autocomplete=name></label><label>Email <input name=email type=email autocomplete=email></label>
<label>Street <input name=street autocomplete=street-address></label><label>City <input name=city autocomplete=address-level2></label>
<label>Postcode <input name=zip autocomplete=postal-code></label><label>Card number <input name=cc autocomplete=cc-number></label>
<label>Expiry <input name=exp autocomplete=cc-exp></label><button>Buy</button></form>`})
	// A browser of its own, counted from before it starts: Chromium's own
	// traffic comes at start-up (network time, the on-device model's
	// component manifest, the sign-in cookie check), so a window that opens
	// after the launch (as this test's did) sees none of it.
	dns := &names{}
	p, err := policy.New(policy.Options{Block: blockList})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b, err := driver.Launch(ctx, driver.Options{ExecPath: browsertest.Chrome(t), Policy: p, Resolver: dns})
	if err != nil {
		t.Fatalf("launch: %v", err)
	}
	defer b.Close()
	s, err := b.Session(ctx, "background")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct{ label, value string }{{"Full name", "Ann Lee"}, {"Email", "ann@example.com"}, {"Street", "1 High St"}, {"City", "Leeds"}} {
		if _, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActFill, Target: "label=" + f.label, Value: f.value}); err != nil {
			t.Fatal(err)
		}
	}
	// The window background traffic is looked for in, after the fills;
	// set WAYMARK_ADVERSARIAL_WATCH (a duration) to watch longer. There is
	// no event to wait for when the promise is that nothing happens.
	watch := 3 * time.Second
	if d, err := time.ParseDuration(os.Getenv("WAYMARK_ADVERSARIAL_WATCH")); err == nil {
		watch = d
	}
	time.Sleep(watch)
	if asked := dns.Asked(); len(asked) > 0 {
		t.Errorf("the browser tried to reach names of its own: %v", asked)
	}
}

var (
	bareOnce    sync.Once
	bareBrowser *driver.Browser
	bareErr     error
)

// bareSession is a session of a browser with the block list but without
// the daemon's proxy (as with a user's own proxy, an attached browser or
// private_network = "all"): only the browser's guards stand between a page
// and a blocked host. Its traffic is kept on loopback by a dead proxy
// (Chromium bypasses proxies for loopback) and a resolver that resolves
// nothing.
func bareSession(t *testing.T) (*driver.Session, context.Context) {
	t.Helper()
	path := browsertest.Chrome(t)
	bareOnce.Do(func() {
		p, err := policy.New(policy.Options{Block: blockList})
		if err != nil {
			bareErr = err
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		bareBrowser, bareErr = driver.Launch(ctx, driver.Options{ExecPath: path, Policy: p, Resolver: &names{},
			Args: []string{"--proxy-server=http://127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1 , EXCLUDE 127.0.0.2 , EXCLUDE 127.0.0.3"}})
	})
	if bareErr != nil {
		t.Fatalf("launch: %v", bareErr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	s, err := bareBrowser.Session(ctx, t.Name())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bareBrowser.CloseSession(t.Name()) })
	return s, ctx
}

func closeBareBrowser() {
	if bareBrowser != nil {
		bareBrowser.Close()
	}
}

func TestNewTabsPausedBeforeTheirFirstRequest(t *testing.T) {
	t.Parallel()
	blocked := NewServerOn(t, "127.0.0.2:0", map[string]string{"/x": "<title>blocked</title>"})
	allowed := NewServerOn(t, "127.0.0.3:0", map[string]string{"/x": "<title>ok</title>"})
	bad := "http://127.0.0.2:" + blocked.Port() + "/x"
	good := "http://127.0.0.3:" + allowed.Port() + "/x"
	pages := map[string]string{
		"target=_blank link":           `<a id=a target=_blank href="%s">go</a>`,
		"window.open":                  `<button id=a onclick="window.open('%s')">go</button>`,
		"window.open then location":    `<button id=a onclick="var w=window.open('about:blank'); w.location='%s'">go</button>`,
		"form posting to a new window": `<form target=_blank method=post action="%s"><input name=q value=1><button id=a>go</button></form>`,
		"noopener link":                `<a id=a target=_blank rel=noopener href="%s">go</a>`,
	}
	held := 0
	for name, page := range pages {
		ok := t.Run(name, func(t *testing.T) {
			s, ctx := bareSession(t)
			for _, c := range []struct {
				to     string
				srv    *Server
				refuse bool
			}{{good, allowed, false}, {bad, blocked, true}} {
				srv := NewServer(t, map[string]string{"/": "<!doctype html><title>Page</title>" + strings.Replace(page, "%s", c.to, 1)})
				if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil {
					t.Fatal(err)
				}
				c.srv.Reset()
				_, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#a"})
				_, _ = s.Snapshot(ctx, calls.SnapshotRequest{})
				n := c.srv.Count("", "/x")
				switch {
				case !c.refuse && n == 0:
					t.Fatalf("the allowed host got no request (%v): the case proves nothing", err)
				case c.refuse && n != 0:
					t.Errorf("the blocked host got %d requests", n)
				case c.refuse && err == nil:
					t.Errorf("the action did not say the new tab was refused")
				}
			}
		})
		if ok {
			held++
		}
	}
	t.Logf("new tabs without the proxy: %d of %d held", held, len(pages))
}
