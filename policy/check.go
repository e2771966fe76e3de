package policy

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strings"
)

// Resolver looks up the addresses of a host name. *net.Resolver (and so
// net.DefaultResolver) satisfies it; tests pass a fake.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// PrivateAddressError is an address the private network setting refuses.
type PrivateAddressError struct {
	Host   string       // the host name or literal that was checked
	Addr   netip.Addr   // the refused address
	Class  Class        // its class
	Addrs  []netip.Addr // every address the host resolved to, when it was resolved
	Access Access       // the setting that refused it
}

func (e *PrivateAddressError) Error() string {
	var b strings.Builder
	if e.Host != "" && e.Host != e.Addr.String() {
		fmt.Fprintf(&b, "%q resolves to %s", e.Host, e.Addr)
		if len(e.Addrs) > 1 {
			fmt.Fprintf(&b, " (one of its %d addresses)", len(e.Addrs))
		}
	} else {
		fmt.Fprintf(&b, "%s", e.Addr)
	}
	fmt.Fprintf(&b, ", a %s address", e.Class)
	if what, ok := metadata[e.Addr.WithZone("")]; ok {
		fmt.Fprintf(&b, " (%s)", what)
	}
	want := AccessAll
	if e.Class == ClassLoopback {
		want = AccessLoopback
	}
	fmt.Fprintf(&b, `; pages may not reach it with private_network = %q; set private_network = %q in [policy] in waymark.toml or pass --private-network=%s to allow it`, e.Access, want, want)
	return b.String()
}

func (e *PrivateAddressError) Unwrap() error { return ErrPrivateAddress }

// CheckAddr judges ip by its [Class] and [Options.PrivateNetwork]. A
// refusal is a [*PrivateAddressError].
func (p *Policy) CheckAddr(ip netip.Addr) error {
	return p.checkAddr("", ip, nil)
}

func (p *Policy) checkAddr(host string, ip netip.Addr, all []netip.Addr) error {
	c := Classify(ip)
	if p.access.allows(c) {
		return nil
	}
	return &PrivateAddressError{Host: host, Addr: ip, Class: c, Addrs: all, Access: p.access}
}

// checkLocalhost judges a localhost name as the loopback address it is.
func (p *Policy) checkLocalhost(host string) error {
	if p.access.allows(ClassLoopback) {
		return nil
	}
	return &PrivateAddressError{Host: host, Addr: netip.IPv6Loopback(), Class: ClassLoopback, Access: p.access}
}

// CheckHost judges host (a name or IP literal, with or without brackets, no
// port) by the Block rules that name a host only (a name, or an address it
// resolves to), and by the addresses it resolves to through r; nil r means
// net.DefaultResolver. The host is refused if any of its addresses is,
// against DNS rebinding by a name that answers with a public and a private
// address. An IP literal, localhost and names under .localhost are judged
// without DNS; with Access "all" nothing is looked up.
//
// Each call resolves afresh, so a name that answers differently the second
// time is judged by the second answer. A lookup error is returned wrapped,
// and the caller should not navigate on it. To connect to exactly what was
// judged, use [Policy.Addrs].
func (p *Policy) CheckHost(ctx context.Context, host string, r Resolver) error {
	_, err := p.addrs(ctx, host, r, false)
	return err
}

// Addrs resolves host like [Policy.CheckHost] and returns the addresses a
// connection may use, every one of them judged; a refusal is the same
// error CheckHost gives. An IP literal gives itself and localhost the
// loopback addresses. Unlike CheckHost it resolves with Access "all" too,
// since the caller connects to what it returns: the one lookup that is
// judged is then the one that is used (see the package doc on rebinding).
func (p *Policy) Addrs(ctx context.Context, host string, r Resolver) ([]netip.Addr, error) {
	return p.addrs(ctx, host, r, true)
}

func (p *Policy) addrs(ctx context.Context, host string, r Resolver, resolveAll bool) ([]netip.Addr, error) {
	h, addr, err := canonHost(host)
	if err != nil {
		return nil, &BlockedError{URL: host, Reason: ReasonBadURL}
	}
	// A host a Block rule names is refused here too, not only on the URL:
	// the proxy judges every request by its host alone (an image, a fetch,
	// a beacon), and a blocked host is never reached.
	for _, r := range p.block {
		if r.scheme == "" && r.matchHost(h) {
			return nil, &BlockedError{URL: host, Reason: ReasonBlocked, Rule: r.text}
		}
	}
	switch {
	case addr.IsValid():
		if err := p.checkAddr(h, addr, nil); err != nil {
			return nil, err
		}
		return []netip.Addr{addr}, nil
	case isLocalhost(h):
		if err := p.checkLocalhost(h); err != nil {
			return nil, err
		}
		addrs := []netip.Addr{netip.IPv6Loopback(), netip.AddrFrom4([4]byte{127, 0, 0, 1})}
		for _, a := range addrs {
			if err := p.blockedAddr(h, a); err != nil {
				return nil, err
			}
		}
		return addrs, nil
	case p.access == AccessAll && !resolveAll:
		return nil, nil
	}
	if r == nil {
		r = net.DefaultResolver
	}
	addrs, err := r.LookupNetIP(ctx, "ip", h)
	if err != nil {
		return nil, fmt.Errorf("policy: resolve %q: %w", h, err)
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("policy: resolve %q: no addresses", h)
	}
	for i, a := range addrs {
		addrs[i] = a.Unmap() // an IPv4-mapped answer is dialled as the IPv4 address it is
		if err := p.checkAddr(h, a, addrs); err != nil {
			return nil, err
		}
		if err := p.blockedAddr(h, addrs[i]); err != nil {
			return nil, err
		}
	}
	return addrs, nil
}

// blockedAddr refuses an address a Block rule names as an IP host: a name
// that resolves to a blocked address is blocked as the address is (rules
// compare addresses, not spellings).
func (p *Policy) blockedAddr(host string, a netip.Addr) error {
	for _, r := range p.block {
		if r.scheme != "" {
			continue // a URL prefix also names a port and a path: judged on the URL
		}
		if ra, err := netip.ParseAddr(r.host); err == nil && ra == a {
			return &BlockedError{URL: host, Reason: ReasonBlocked, Rule: r.text}
		}
	}
	return nil
}
