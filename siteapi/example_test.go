package siteapi_test

import (
	"fmt"
	"time"

	"github.com/waymark-dev/waymark/capture"
	"github.com/waymark-dev/waymark/siteapi"
)

// Learn finds the call behind the rows a page showed, and where each
// value it sent came from: the token by its marker's hash.
func ExampleLearn() {
	key := []byte("a key drawn for each capture")
	f := &capture.File{
		Format: capture.Format,
		Exchanges: []capture.Exchange{{
			ID: "1", Method: "GET", URL: "https://shop.example/api/products?limit=2", Page: "https://shop.example/lamps",
			RequestHeaders: []capture.Header{{Name: "authorization", Value: "Bearer " + capture.Marker(key, "authorization", "tok-5e3c1a")}},
			Status:         200,
			ResponseBody:   `{"items":[{"title":"Brass lamp","price":{"amount":49}},{"title":"Slate lamp","price":{"amount":35.5}}]}`,
			Sent:           time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC),
		}},
		State: []capture.StateValue{{Source: "localStorage:session", Value: capture.Marker(key, "token", "tok-5e3c1a")}},
	}
	rows := []map[string]any{{"name": "Brass lamp", "price": "€49.00"}, {"name": "Slate lamp", "price": "€35.50"}}
	r, _, err := siteapi.Learn(f, rows, siteapi.LearnOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Request.Method, r.Request.URL, "rows at", r.Rows)
	for _, f := range r.Fields {
		fmt.Println("field", f.Name, "at", f.Path)
	}
	for _, p := range append(r.Request.Query, r.Request.Headers...) {
		fmt.Printf("%s: from %s %s%s\n", p.Name, p.From, p.Key, p.Value)
	}
	// Output:
	// GET https://shop.example/api/products rows at /items
	// field name at /title
	// field price at /price/amount
	// limit: from const 2
	// authorization: from localStorage session
}
