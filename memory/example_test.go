package memory_test

import (
	"context"
	"fmt"
	"os"

	"github.com/waymark-dev/waymark/memory"
)

// A folder of notes, one file per host: what a replay's heal learned is
// shown to the next heal on the same site.
func ExampleDir() {
	dir, _ := os.MkdirTemp("", "notes")
	defer os.RemoveAll(dir)
	m := memory.Dir{Path: dir}
	ctx := context.Background()
	_ = m.Learn(ctx, "shop.example", `the button "Save draft" is now "Keep draft"`)
	hints, _ := m.Hints(ctx, "shop.example")
	fmt.Println(hints)
	// Output: [the button "Save draft" is now "Keep draft"]
}
