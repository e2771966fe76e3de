package driver_test

import (
	"context"
	"fmt"
	"log"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/policy"
)

// Start a headless Chromium, open a page in a named session and read its
// outline: one element a line, with a ref on what can be acted on. The
// policy keeps the browser off every host but one.
func Example() {
	ctx := context.Background()
	pol, err := policy.New(policy.Options{Allow: []string{"example.com"}})
	if err != nil {
		log.Fatal(err)
	}
	b, err := driver.Launch(ctx, driver.Options{Policy: pol})
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	s, err := b.Session(ctx, "example")
	if err != nil {
		log.Fatal(err)
	}
	if _, err := s.Open(ctx, calls.OpenRequest{URL: "https://example.com/"}); err != nil {
		log.Fatal(err)
	}
	snap, err := s.Snapshot(ctx, calls.SnapshotRequest{Interactive: true})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(snap.Text)
	// Act on an element by its ref, with a person's pointer path and pace.
	if _, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "@e1", Hand: true}); err != nil {
		log.Fatal(err)
	}
}

func ExampleNormalizeURL() {
	for _, raw := range []string{"example.com/docs", "http://127.0.0.1:8080/", "ftp://example.com/", "/tmp/report.html"} {
		u, err := driver.NormalizeURL(raw)
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		fmt.Println(u)
	}
	// Output:
	// https://example.com/docs
	// http://127.0.0.1:8080/
	// error: unsupported scheme "ftp" in "ftp://example.com/"
	// error: "/tmp/report.html" is a path, not an address
}
