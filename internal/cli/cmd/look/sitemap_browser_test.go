package look

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/discover"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/demo/pubsite"
	"github.com/waymark-dev/waymark/internal/sessions"
)

// TestSitemapCommand: `waymark sitemap ORIGIN --query` through the
// daemon's handler and a real browser lists the published pages ranked,
// leaves the session on the tab it was on, and --json is the Map.
func TestSitemapCommand(t *testing.T) {
	path := browsertest.Chrome(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	site := pubsite.New(pubsite.Options{})
	srv := httptest.NewServer(site)
	defer srv.Close()
	m := sessions.New(driver.Options{ExecPath: path, Args: browsertest.GuardArgs})
	defer m.Close()

	common, out, errOut := clitest.NewCommon(m, false, false)
	opts := &SitemapOptions{Common: common, Origin: srv.URL, Query: "floor lamp", Limit: 3}
	if err := sitemapRun(ctx, opts); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) == 0 || !strings.HasSuffix(lines[0], srv.URL+"/shop/products/floor-lamp") {
		t.Fatalf("printed:\n%s", out)
	}
	if !strings.Contains(errOut.String(), "from "+srv.URL+"/sitemap_index.xml") {
		t.Errorf("note: %s", errOut)
	}
	tabs, err := common.Remote().Tab(ctx, calls.TabRequest{Op: "list"})
	if err != nil || len(tabs.Tabs) != 1 || strings.HasPrefix(tabs.Tabs[0].URL, srv.URL) {
		t.Errorf("tabs after: %+v %v; want the one tab the session had, not on the site", tabs, err)
	}

	common, out, _ = clitest.NewCommon(m, true, false)
	opts.Common = common
	if err := sitemapRun(ctx, opts); err != nil {
		t.Fatal(err)
	}
	var env struct {
		OK   bool         `json:"ok"`
		Data discover.Map `json:"data"`
	}
	if err := json.Unmarshal(out.Bytes(), &env); err != nil || !env.OK || len(env.Data.Pages) != 3 || env.Data.Requests != 5 {
		t.Errorf("json: %v %s", err, out)
	}
}
