package driver

import (
	"context"
	"fmt"
	"net/netip"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/internal/netguard"
	"github.com/waymark-dev/waymark/policy"
)

// The private-network rule is judged on addresses, and a name can resolve
// to a public address when it is checked and to a private one when the
// browser connects (DNS rebinding). So a browser waymark starts reaches
// the network through the daemon's proxy (internal/netguard), set per
// browser context: the proxy connects only to addresses the policy judged,
// pinned by the navigation's own check or resolved and judged by the proxy,
// and Chromium never resolves a name itself. Loopback and link-local
// addresses go through it too (Chromium would let them bypass a proxy), so
// a page's own requests to them are judged as well.

// proxyEnv are the variables by which a user routes traffic through a
// proxy of their own; the daemon's proxy would connect around it.
var proxyEnv = []string{"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"}

// ProxyOff says why a browser launched with opts would not reach the
// network through the daemon's address-pinning proxy, or "" when it would
// (for `waymark doctor`). getenv reads the environment.
func ProxyOff(opts Options, getenv func(string) string) string {
	if opts.Policy == nil {
		p, err := policy.New(policy.Options{})
		if err != nil {
			return err.Error()
		}
		opts.Policy = p
	}
	return whyNoProxy(opts, getenv)
}

// whyNoProxy says why the browser's traffic cannot or need not go through
// the daemon's proxy, or "" when it goes through it. opts.Policy is set.
func whyNoProxy(opts Options, getenv func(string) string) string {
	switch {
	case opts.CDP != "":
		return "an attached browser may run on another machine, out of the proxy's reach"
	case opts.Policy.Access() == policy.AccessAll:
		return "private_network = \"all\" judges no address"
	}
	for _, a := range opts.Args {
		if f := strings.TrimLeft(a, "-"); strings.HasPrefix(f, "proxy-") || f == "no-proxy-server" {
			return "the browser's own proxy flags (" + a + ") are in charge"
		}
	}
	for _, v := range proxyEnv {
		if getenv(v) != "" {
			return v + " routes traffic through a proxy of the user's"
		}
	}
	return ""
}

// startProxy starts the daemon's proxy for a browser waymark started, when
// it can; without it, the guard's check before each navigation is the
// only one, and a name that resolves differently for the browser is not
// caught (logged, so a user who routes traffic through a proxy of their
// own can tell).
func (b *Browser) startProxy() error {
	if why := whyNoProxy(b.opts, os.Getenv); why != "" {
		b.log.Debug("no address-pinning proxy", "why", why)
		return nil
	}
	p, err := netguard.Start(netguard.Options{
		Resolve: func(ctx context.Context, host string) ([]netip.Addr, error) {
			return b.opts.Policy.Addrs(ctx, host, b.opts.Resolver)
		},
		Dial: b.opts.Dial,
		Log:  b.log,
	})
	if err != nil {
		return err
	}
	b.proxy = p
	return nil
}

// judge decides whether a document request may go: the URL policy, then
// the addresses of its host. With the proxy, the addresses judged are
// pinned there, so the browser's connection goes to exactly those; a host
// pinned a moment ago (the open's own check before the guard's) is not
// looked up again, since its pin holds judged addresses only.
func (b *Browser) judge(ctx context.Context, u *url.URL) error {
	p := b.opts.Policy
	if b.proxy == nil {
		return p.Check(ctx, u, b.opts.Resolver)
	}
	if err := p.CheckURL(u); err != nil {
		return err
	}
	host := u.Hostname()
	if host == "" {
		return nil // about:blank, data:; CheckURL has judged them
	}
	if b.proxy.Pinned(host) {
		return nil
	}
	addrs, err := p.Addrs(ctx, host, b.opts.Resolver)
	if err != nil {
		return err
	}
	b.proxy.Pin(host, addrs)
	return nil
}

// proxySaw says what the daemon's proxy saw of host since t, for the
// error of a navigation that failed: its own refusal, or the site's
// failure, which the browser saw as a reset whatever the site did
// (internal/netguard, failures.go). "" when it saw neither.
func (b *Browser) proxySaw(host string, since time.Time) string {
	if b.proxy == nil || host == "" {
		return ""
	}
	host = strings.ToLower(host)
	for _, r := range slices.Backward(b.proxy.Refusals()) {
		if r.Host == host && !r.At.Before(since) {
			return fmt.Sprintf("waymark's proxy refused %s: %v", host, r.Err)
		}
	}
	for _, f := range slices.Backward(b.proxy.Failures()) {
		if f.Host != host || f.At.Before(since) {
			continue
		}
		what := map[string]string{
			netguard.FailRefused:     "refused the connection",
			netguard.FailReset:       "reset the connection",
			netguard.FailTimeout:     "did not answer in time",
			netguard.FailUnreachable: "could not be reached (no route to its address)",
		}[f.Kind]
		if what == "" {
			what = fmt.Sprintf("could not be reached (%v)", f.Err)
		}
		return fmt.Sprintf("the site %s (seen by waymark's proxy, which passes every failure on as a reset)", what)
	}
	return ""
}
