package policy_test

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"

	"github.com/waymark-dev/waymark/policy"
)

func Example() {
	p, err := policy.New(policy.Options{
		Allow: []string{"example.com", "*.example.com"},
		Block: []string{"*.ads.example.com"},
	})
	if err != nil {
		panic(err)
	}
	u, _ := url.Parse("https://x.ads.example.com/banner")
	err = p.CheckURL(u)
	fmt.Println(errors.Is(err, policy.ErrBlockedURL))
	fmt.Println(err)
	fmt.Println(policy.Classify(netip.MustParseAddr("::ffff:10.0.0.1")))
	// Output:
	// true
	// "https://x.ads.example.com/banner" is blocked by the policy rule "*.ads.example.com"
	// private
}

// A policy that keeps pages on one site and off its ads. The driver takes
// it as driver.Options.Policy and checks every navigation and redirect.
func ExamplePolicy_CheckURL() {
	p, err := policy.New(policy.Options{
		Allow: []string{"shop.example", "*.shop.example"},
		Block: []string{"ads.shop.example"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, raw := range []string{"https://shop.example/cart", "https://img.shop.example/a.png", "https://ads.shop.example/", "https://elsewhere.example/"} {
		u, _ := url.Parse(raw)
		err := p.CheckURL(u)
		fmt.Println(raw, err == nil, errors.Is(err, policy.ErrBlockedURL))
	}
	// Output:
	// https://shop.example/cart true false
	// https://img.shop.example/a.png true false
	// https://ads.shop.example/ false true
	// https://elsewhere.example/ false true
}

// ParseAccess reads the private-network setting as a flag or a file
// gives it.
func ExampleParseAccess() {
	a, err := policy.ParseAccess("loopback")
	fmt.Println(a, err)
	_, err = policy.ParseAccess("intranet")
	fmt.Println(err != nil)
	// Output:
	// loopback <nil>
	// true
}
