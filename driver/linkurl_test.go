package driver_test

import (
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// TestSnapshotURLs: with URLs, a link line says where it goes, resolved
// against the page and with a token masked; without, it says nothing.
func TestSnapshotURLs(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/shop/": `<title>L</title>
<a href="../products/2">Trail Mug</a>
<a href="https://example.test/reset?token=Zx8Kq2Lp9Wm3Nb7Vc4XzR1tY">Reset</a>
<a href="javascript:void(0)">Menu</a>
<button>Go</button>`})
	open(t, s, ctx, srv.URL+"/shop/")
	plain := snapshot(t, s, ctx, calls.SnapshotRequest{})
	if strings.Contains(plain, "url=") {
		t.Errorf("url= without URLs:\n%s", plain)
	}
	with := snapshot(t, s, ctx, calls.SnapshotRequest{URLs: true})
	for _, want := range []string{
		`link "Trail Mug" [ref=`,
		`url="` + srv.URL + `/products/2"`,
		`url="https://example.test/reset?token=«secret»"`,
	} {
		if !strings.Contains(with, want) {
			t.Errorf("no %s in:\n%s", want, with)
		}
	}
	for _, line := range strings.Split(with, "\n") {
		if strings.Contains(line, `"Menu"`) && strings.Contains(line, "url=") || strings.Contains(line, "button") && strings.Contains(line, "url=") {
			t.Errorf("url on %q", line)
		}
	}
}
