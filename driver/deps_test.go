package driver_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDeps keeps the driver below the pilot: it holds the page and never
// calls a model (DESIGN.md: the two halves), so it imports neither the
// pilot, nor a model package, nor a vendor's SDK.
func TestDeps(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", "github.com/waymark-dev/waymark/driver").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{
			"github.com/waymark-dev/waymark/pilot",
			"github.com/waymark-dev/waymark/replay",
			"github.com/waymark-dev/waymark/model",
			"github.com/waymark-dev/waymark/internal/model",
			"github.com/anthropics/",
			"github.com/openai/",
		} {
			if dep == banned || strings.HasPrefix(dep, banned+"/") {
				t.Errorf("driver depends on %s", dep)
			}
		}
	}
}

// TestFeatureRoomDeps keeps the floors of the driver's feature rooms
// (driver/internal/*, doc.go: Layout): each stands beside the core, not on
// it, so it imports neither driver (the core hands it a narrow view) nor
// another room, nor a model or the pilot. internal/elem, the element-level
// view every room holds the core's elements by, is their shared
// vocabulary, and imports no room itself.
func TestFeatureRoomDeps(t *testing.T) {
	t.Parallel()
	const mod = "github.com/waymark-dev/waymark/"
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Deps \" \"}}", "./internal/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	// The rooms doc.go's map names: one missing from the list below, or
	// a new one not in it, is a map to update.
	want := map[string]bool{}
	for _, r := range []string{"netcap", "files", "netlogfile", "form", "pagetool", "shot", "doctext", "sheetcell",
		"pagefetch", "clipboard", "appmark", "store", "elem"} {
		want[mod+"driver/internal/"+r] = true
	}
	rooms := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		room, deps := f[0], f[1:]
		rooms++
		if !want[room] {
			t.Errorf("%s is not a room doc.go's map names (add it to the map and to this list)", room)
		}
		delete(want, room)
		for _, dep := range deps {
			switch {
			case dep == mod+"driver":
				t.Errorf("%s imports the driver core; take a narrow view instead (surface.go)", room)
			case strings.HasPrefix(dep, mod+"driver/internal/") && !strings.HasPrefix(dep, room+"/") && dep != mod+"driver/internal/elem":
				t.Errorf("%s imports another feature room, %s", room, dep)
			case dep == mod+"pilot", dep == mod+"replay", strings.HasPrefix(dep, mod+"model"), strings.HasPrefix(dep, mod+"internal/model"),
				strings.HasPrefix(dep, "github.com/anthropics/"), strings.HasPrefix(dep, "github.com/openai/"):
				t.Errorf("%s depends on %s", room, dep)
			}
		}
	}
	if rooms == 0 {
		t.Fatal("no feature room under driver/internal")
	}
	for room := range want {
		t.Errorf("%s is gone: take it out of doc.go's map and this list", room)
	}
}
