package clitest

import "github.com/waymark-dev/waymark/calls"

// CLIPlan is a test plan of one scenario: open /products on
// http://shop.test and expect the title Products.
const CLIPlan = `name: cli plan
base_url: http://shop.test
expect_timeout: 300ms
scenarios:
  - name: title
    steps:
      - open /products
      - expect title Products
`

// ShopReply answers like a page titled title at /products.
func ShopReply(title string) func(method string, params any) (any, error) {
	return func(method string, params any) (any, error) {
		switch method {
		case calls.MethodOpen:
			return calls.PageInfo{URL: params.(calls.OpenRequest).URL, Title: title}, nil
		case calls.MethodGet:
			return calls.GetResult{Value: title, Found: true}, nil
		case calls.MethodScreenshot:
			return calls.Image{Data: []byte("\x89PNG\r\n\x1a\nfake")}, nil
		case calls.MethodSnapshot:
			return calls.Snapshot{URL: "http://shop.test/products", Title: title, Text: "- heading \"" + title + "\""}, nil
		}
		return calls.Empty{}, nil
	}
}
