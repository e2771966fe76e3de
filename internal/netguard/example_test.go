package netguard_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"net/url"

	"github.com/waymark-dev/waymark/internal/netguard"
)

func Example() {
	// Resolve stands in for the policy's checked resolver: here it refuses
	// every host, so nothing is ever dialed.
	p, err := netguard.Start(netguard.Options{
		Resolve: func(ctx context.Context, host string) ([]netip.Addr, error) {
			return nil, errors.New(host + " resolves to 10.0.0.5, a private address")
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Close()

	// The daemon hands p.URL() to Target.createBrowserContext as
	// proxyServer; an http.Client with the same proxy behaves alike.
	proxyURL, _ := url.Parse(p.URL())
	tr := &http.Transport{Proxy: http.ProxyURL(proxyURL)}
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr}).Get("http://intranet.test/")
	if err != nil {
		fmt.Println(err)
		return
	}
	resp.Body.Close()
	fmt.Println(resp.Status)
	for _, r := range p.Refusals() {
		fmt.Printf("refused %s: %v\n", r.Host, r.Err)
	}
	// Output:
	// 403 Forbidden
	// refused intranet.test: intranet.test resolves to 10.0.0.5, a private address
}
