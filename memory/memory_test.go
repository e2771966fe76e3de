package memory

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDir(t *testing.T) {
	ctx := context.Background()
	d := Dir{Path: filepath.Join(t.TempDir(), "notes"), Max: 3, HintCount: 2}
	if h, err := d.Hints(ctx, "shop.example"); err != nil || len(h) != 0 {
		t.Fatalf("no notes yet: %v %v", h, err)
	}
	for _, l := range []string{"the button \"Save draft\" is now \"Keep draft\"", "a", "b", "the button \"Save draft\" is now \"Keep draft\"", "c"} {
		if err := d.Learn(ctx, "Shop.Example", l); err != nil {
			t.Fatal(err)
		}
	}
	show, err := d.Show("shop.example")
	if err != nil || !strings.Contains(show, "# Notes on shop.example") {
		t.Fatalf("show: %q %v", show, err)
	}
	// Kept once, moved to the end; three at most; two hinted.
	if h, _ := d.Hints(ctx, "shop.example"); fmt.Sprint(h) != `[the button "Save draft" is now "Keep draft" c]` {
		t.Errorf("hints %q", h)
	}
	if fi, err := os.Stat(filepath.Join(d.Path, "shop.example.md")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v %v", fi.Mode(), err)
	}
	for _, bad := range []string{"", "../etc/passwd", "a/b", "shop.example:8080", "-x.example", "x..example"} {
		if err := d.Learn(ctx, bad, "x"); !errors.Is(err, ErrBadHost) {
			t.Errorf("host %q: %v", bad, err)
		}
	}
	if ok, err := d.Forget("shop.example"); !ok || err != nil {
		t.Errorf("forget: %v %v", ok, err)
	}
	if ok, err := d.Forget("shop.example"); ok || err != nil {
		t.Errorf("forget again: %v %v", ok, err)
	}
	if h, _ := d.Hints(ctx, "shop.example"); len(h) != 0 {
		t.Errorf("hints after forget %q", h)
	}
}
