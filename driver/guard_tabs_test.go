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
	"github.com/waymark-dev/waymark/policy"
)

// TestGuardRefusesANewTabOnABlockedURL: a link that opens a new tab lands
// on a blocked host (directly, or at the end of a redirect); the tab is
// closed, the acting tab stays current and the click says blocked-url. An
// allowed new tab still opens and becomes current. The browser has its own
// policy; every name is mapped to the loopback server (in Chromium and
// through the proxy's Dial seam), so nothing leaves the machine.
func TestGuardRefusesANewTabOnABlockedURL(t *testing.T) {
	t.Parallel()
	path := browsertest.Chrome(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		port := r.URL.Query().Get("port")
		w.Header().Set("Content-Type", "text/html")
		switch {
		case r.URL.Path == "/ads":
			http.Redirect(w, r, "http://ads.blocked.test:"+port+"/landing", http.StatusFound)
		case strings.HasPrefix(r.Host, "ads.blocked.test:"):
			io.WriteString(w, `<title>Ad</title><p>an advert</p>`)
		case r.URL.Path == "/shop":
			io.WriteString(w, `<title>Shop</title><p>the shop</p>`)
		default:
			io.WriteString(w, `<title>Start</title>
<a id=ad target=_blank href="http://ads.blocked.test:`+port+`/">Advert</a>
<a id=hop target=_blank href="/ads?port=`+port+`">Advert by redirect</a>
<a id=intra target=_blank href="http://intranet.test:`+port+`/">Intranet</a>
<a id=shop target=_blank href="/shop">Shop</a>`)
		}
	}))
	defer srv.Close()
	port := srv.URL[strings.LastIndexByte(srv.URL, ':')+1:]

	pol, err := policy.New(policy.Options{Block: []string{"*.blocked.test"}, PrivateNetwork: policy.AccessLoopback})
	if err != nil {
		t.Fatal(err)
	}
	// For the policy both names are public addresses, so the proxy lets
	// the new tab's first load through as the browser would; the browser
	// and the proxy's Dial send both to the loopback server.
	res := fakeResolver{
		"public.test":      {netip.MustParseAddr("93.184.216.34")},
		"ads.blocked.test": {netip.MustParseAddr("93.184.216.35")},
		"intranet.test":    {netip.MustParseAddr("10.1.2.3")},
	}
	s, dials := guardedSession(t, ctx, path, driver.Options{Policy: pol, Resolver: res, Args: []string{"--host-resolver-rules=MAP *.test 127.0.0.1 , MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1"}}, "newtab")
	start := "http://public.test:" + port + "/?port=" + port
	if _, err := s.Open(ctx, calls.OpenRequest{URL: start}); err != nil {
		t.Fatalf("open an allowed page: %v", err)
	}

	// A private address never loads (the proxy refuses it): the new tab's
	// error page is judged by the URL that failed.
	for link, host := range map[string]string{"css=#ad": "ads.blocked.test", "css=#hop": "ads.blocked.test", "css=#intra": "intranet.test"} {
		_, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: link})
		if !errors.Is(err, calls.ErrBlockedURL) || !strings.Contains(err.Error(), host) {
			t.Fatalf("click %s, a new tab onto a refused host: %v, want blocked-url naming %s", link, err, host)
		}
		list, err := s.Tab(ctx, calls.TabRequest{Op: "list"})
		if err != nil {
			t.Fatal(err)
		}
		if len(list.Tabs) != 1 || list.Tabs[0].URL != start || !list.Tabs[0].Current {
			t.Fatalf("after %s the tabs are %+v, want only the first, current", link, list.Tabs)
		}
		if info, _ := s.PageInfo(ctx); info == nil || info.URL != start {
			t.Fatalf("after %s the current tab is on %+v, want %s", link, info, start)
		}
	}

	for _, a := range dials.seen() {
		if strings.HasPrefix(a, "10.") {
			t.Fatalf("the proxy dialled %s", a)
		}
	}

	// A tab the page opens by itself, outside an action, is judged when
	// the session adopts it and closed.
	if v, err := s.Eval(ctx, calls.EvalRequest{MainWorld: true, Expression: `window.open('http://ads.blocked.test:` + port + `/later') ? 'opened' : 'refused'`}); err != nil || string(v.Value) != `"opened"` {
		t.Fatalf("window.open: %v, %v", v, err)
	}
	time.Sleep(500 * time.Millisecond)
	if list, err := s.Tab(ctx, calls.TabRequest{Op: "list"}); err != nil || len(list.Tabs) != 1 || !list.Tabs[0].Current {
		t.Fatalf("after the page opened a blocked tab the tabs are %+v, %v", list, err)
	}
	if info, _ := s.PageInfo(ctx); info == nil || info.URL != start {
		t.Fatalf("after the page opened a blocked tab the current tab is on %+v", info)
	}

	// An allowed new tab opens and becomes current.
	out, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#shop"})
	if err != nil {
		t.Fatalf("click a link to an allowed new tab: %v", err)
	}
	if out.Title != "Shop" {
		t.Fatalf("the click's outcome is %+v, want the new tab's page", out)
	}
	list, err := s.Tab(ctx, calls.TabRequest{Op: "list"})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tabs) != 2 || !list.Tabs[1].Current || !strings.HasSuffix(list.Tabs[1].URL, "/shop") {
		t.Fatalf("after the allowed link the tabs are %+v", list.Tabs)
	}
}
