package driver_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

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
	if _, err := s.Navigate(ctx, "https://example.com/"); err != nil {
		log.Fatal(err)
	}
	outline, err := s.Outline(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(outline)
	// Act on an element by its ref, with a person's pointer path and pace.
	if _, err := s.Click(ctx, "@e1", driver.WithHand()); err != nil {
		log.Fatal(err)
	}
}

// Fill a form and ask before sending it: the click that would submit fails
// with calls.ErrNeedsApproval and the approval to send back once a person
// agreed. Nothing reaches the site until then.
func ExampleSession_Click() {
	ctx := context.Background()
	b, err := driver.Launch(ctx, driver.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	s, err := b.Session(ctx, "orders")
	if err != nil {
		log.Fatal(err)
	}
	if _, err := s.Navigate(ctx, "https://shop.example/checkout"); err != nil {
		log.Fatal(err)
	}
	if _, err := s.Fill(ctx, "label=Name", "Ann"); err != nil {
		log.Fatal(err)
	}
	order := `role=button[name="Place order"]`
	_, err = s.Click(ctx, order, driver.AskBeforeSubmit(), driver.WithTimeout(3*time.Second))
	if a, ok := calls.ApprovalOf(err); ok {
		fmt.Println(a.Describe()) // what a person reads before they agree
		// … a person agrees …
		_, err = s.Click(ctx, order, driver.AskBeforeSubmit(), driver.WithApproval(a))
	}
	if errors.Is(err, calls.ErrNoMatch) {
		log.Fatal("no such button: take a new Outline")
	} else if err != nil {
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
