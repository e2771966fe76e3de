package capture_test

import (
	"fmt"
	"strings"

	"github.com/waymark-dev/waymark/capture"
)

// A capture's secrets become markers: the bearer token a request sent
// and the value the page keeps in local storage have the same hash, so a
// reader sees where the header came from without reading either.
func Example() {
	raw := &capture.File{Format: capture.Format,
		Exchanges: []capture.Exchange{{ID: "e1", Kind: "fetch", Method: "GET", URL: "https://shop.example/api/items?page=2",
			RequestHeaders: []capture.Header{{Name: "Authorization", Value: "Bearer tok_Zq8xW3pL0vN7kR2m"}},
			MimeType:       "application/json", ResponseBody: `{"items":[{"name":"Tea"}]}`}},
		State: []capture.StateValue{{Source: "localStorage:token", Value: "tok_Zq8xW3pL0vN7kR2m"}},
	}
	red := capture.NewRedactor(capture.NewKey()).File(raw)
	header := strings.TrimPrefix(red.Exchanges[0].RequestHeaders[0].Value, "Bearer ")
	h1, _ := capture.MarkerHash(header)
	h2, _ := capture.MarkerHash(red.State[0].Value)
	fmt.Println(strings.HasPrefix(header, "«redacted:authorization:"), h1 == h2)
	fmt.Println(red.Exchanges[0].URL, red.Exchanges[0].ResponseBody)
	har := capture.ToHAR(red, "")
	fmt.Println(har.Log.Version, len(har.Log.Entries))
	// Output:
	// true true
	// https://shop.example/api/items?page=2 {"items":[{"name":"Tea"}]}
	// 1.2 1
}
