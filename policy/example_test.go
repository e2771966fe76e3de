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
	// "https://x.ads.example.com/banner" is blocked by the policy rule "*.ads.example.com"; remove it from block in [policy] in waymark.toml to open it
	// private
}
