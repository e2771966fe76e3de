package discover_test

import (
	"fmt"

	"github.com/waymark-dev/waymark/discover"
)

// FromMarkup reads what a page declares: here a feed, and the platform's
// JSON view of the page (WordPress links its REST root and the REST view
// of the post shown). Nothing is requested.
func ExampleFromMarkup() {
	markup := []byte(`<html><head>
<meta name="generator" content="WordPress 6.8">
<link rel="https://api.w.org/" href="https://blog.example/wp-json/">
<link rel="alternate" type="application/json" href="https://blog.example/wp-json/wp/v2/posts/42">
<link rel="alternate" type="application/rss+xml" href="/feed/">
</head></html>`)
	cands, err := discover.FromMarkup("https://blog.example/2026/hello/", markup)
	if err != nil {
		panic(err)
	}
	for _, c := range cands {
		fmt.Println(c.Kind, c.URL)
	}
	// Output:
	// feed https://blog.example/feed/
	// platform https://blog.example/wp-json/wp/v2/posts/42
	// platform https://blog.example/wp-json/wp/v2/posts
}

// ParseFeed reads RSS, Atom and JSON Feed as rows.
func ExampleParseFeed() {
	feed, err := discover.ParseFeed([]byte(`<feed xmlns="http://www.w3.org/2005/Atom"><title>News</title>
<entry><title>Lamps are back</title><link rel="alternate" href="https://shop.example/news/lamps"/><updated>2026-03-01T09:00:00Z</updated><summary>Brass, again.</summary></entry>
</feed>`))
	if err != nil {
		panic(err)
	}
	fmt.Println(feed.Kind, feed.Title)
	for _, row := range feed.Rows() {
		fmt.Println(row["title"], row["link"], row["date"])
	}
	// Output:
	// atom News
	// Lamps are back https://shop.example/news/lamps 2026-03-01T09:00:00Z
}
