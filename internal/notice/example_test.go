package notice_test

import (
	"fmt"

	"github.com/waymark-dev/waymark/internal/notice"
	"github.com/waymark-dev/waymark/internal/outline"
)

func ExampleDetect() {
	page := &outline.Node{Role: "document", Name: "Shop", Children: []*outline.Node{
		{Role: "heading", Name: "We use cookies", Level: 2},
		{Role: "text", Name: "We and our partners use cookies to measure the site."},
		{Role: "button", Name: "Reject all", Ref: "e12"},
		{Role: "button", Name: "Accept all", Ref: "e13"},
	}}
	for _, n := range notice.Detect(notice.Input{Status: 200, Outline: page}) {
		fmt.Println(n.Kind, n.Detail["reject"])
		fmt.Println(n.Message)
	}
	// Output:
	// cookie-banner e12
	// cookie banner "We use cookies" with buttons: "Reject all" [ref=e12], "Accept all" [ref=e13]
}
