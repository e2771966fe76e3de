package policy

import (
	"net/netip"
)

// Class is the kind of an IP address, for the private network check.
type Class string

const (
	ClassPublic      Class = "public"
	ClassLoopback    Class = "loopback"    // 127.0.0.0/8, ::1
	ClassPrivate     Class = "private"     // 10/8, 172.16/12, 192.168/16, fc00::/7, fec0::/10
	ClassShared      Class = "shared"      // 100.64.0.0/10: carrier-grade NAT, Tailscale
	ClassLinkLocal   Class = "link-local"  // 169.254/16 (cloud metadata), fe80::/10
	ClassUnspecified Class = "unspecified" // 0.0.0.0, ::
	ClassMulticast   Class = "multicast"   // 224/4, ff00::/8
	ClassBroadcast   Class = "broadcast"   // 255.255.255.255
	ClassReserved    Class = "reserved"    // documentation, benchmarking, 0/8, 240/4 and other special-purpose ranges
)

// special4 are the IPv4 ranges that are not public, most specific first
// (IANA IPv4 Special-Purpose Address Registry).
var special4 = []struct {
	p netip.Prefix
	c Class
}{
	{netip.MustParsePrefix("0.0.0.0/32"), ClassUnspecified},
	{netip.MustParsePrefix("255.255.255.255/32"), ClassBroadcast},
	{netip.MustParsePrefix("0.0.0.0/8"), ClassReserved}, // "this network"
	{netip.MustParsePrefix("10.0.0.0/8"), ClassPrivate},
	{netip.MustParsePrefix("100.64.0.0/10"), ClassShared},
	{netip.MustParsePrefix("127.0.0.0/8"), ClassLoopback},
	{netip.MustParsePrefix("169.254.0.0/16"), ClassLinkLocal},
	{netip.MustParsePrefix("172.16.0.0/12"), ClassPrivate},
	{netip.MustParsePrefix("192.0.0.0/24"), ClassReserved},    // IETF protocol assignments
	{netip.MustParsePrefix("192.0.2.0/24"), ClassReserved},    // TEST-NET-1
	{netip.MustParsePrefix("192.88.99.0/24"), ClassReserved},  // 6to4 relay anycast, deprecated
	{netip.MustParsePrefix("192.168.0.0/16"), ClassPrivate},   //
	{netip.MustParsePrefix("198.18.0.0/15"), ClassReserved},   // benchmarking; also fake-IP proxies
	{netip.MustParsePrefix("198.51.100.0/24"), ClassReserved}, // TEST-NET-2
	{netip.MustParsePrefix("203.0.113.0/24"), ClassReserved},  // TEST-NET-3
	{netip.MustParsePrefix("224.0.0.0/4"), ClassMulticast},
	{netip.MustParsePrefix("240.0.0.0/4"), ClassReserved},
}

// IPv6 ranges that carry an IPv4 address, judged by that address.
var (
	nat64     = netip.MustParsePrefix("64:ff9b::/96") // RFC 6052: v4 in the last 32 bits
	sixToFour = netip.MustParsePrefix("2002::/16")    // RFC 3056: v4 in bits 16–47
)

// special6 are the other IPv6 ranges that are not public.
var special6 = []struct {
	p netip.Prefix
	c Class
}{
	{netip.MustParsePrefix("::/128"), ClassUnspecified},
	{netip.MustParsePrefix("::1/128"), ClassLoopback},
	{netip.MustParsePrefix("::/96"), ClassReserved},           // IPv4-compatible, deprecated
	{netip.MustParsePrefix("::ffff:0:0:0/96"), ClassReserved}, // IPv4-translated (SIIT)
	{netip.MustParsePrefix("64:ff9b:1::/48"), ClassPrivate},   // local-use NAT64 (RFC 8215): the v4 place varies
	{netip.MustParsePrefix("100::/64"), ClassReserved},        // discard-only
	{netip.MustParsePrefix("2001::/32"), ClassReserved},       // Teredo: tunnels to an address we cannot judge
	{netip.MustParsePrefix("2001:db8::/32"), ClassReserved},   // documentation
	{netip.MustParsePrefix("3fff::/20"), ClassReserved},       // documentation (RFC 9637)
	{netip.MustParsePrefix("fc00::/7"), ClassPrivate},         // unique local; AWS metadata is fd00:ec2::254
	{netip.MustParsePrefix("fe80::/10"), ClassLinkLocal},
	{netip.MustParsePrefix("fec0::/10"), ClassPrivate}, // site-local, deprecated
	{netip.MustParsePrefix("ff00::/8"), ClassMulticast},
}

// Classify returns the class of ip. IPv4-mapped (::ffff:a.b.c.d), NAT64
// (64:ff9b::/96) and 6to4 (2002::/16) addresses take the class of the IPv4
// address inside, so ::ffff:10.0.0.1 is private. An invalid address is
// reserved.
func Classify(ip netip.Addr) Class {
	if !ip.IsValid() {
		return ClassReserved
	}
	ip = ip.WithZone("")
	if ip.Is4In6() {
		return classify4(ip.Unmap())
	}
	if ip.Is4() {
		return classify4(ip)
	}
	b := ip.As16()
	switch {
	case nat64.Contains(ip):
		return classify4(netip.AddrFrom4([4]byte(b[12:16])))
	case sixToFour.Contains(ip):
		return classify4(netip.AddrFrom4([4]byte(b[2:6])))
	}
	for _, s := range special6 {
		if s.p.Contains(ip) {
			return s.c
		}
	}
	return ClassPublic
}

func classify4(ip netip.Addr) Class {
	for _, s := range special4 {
		if s.p.Contains(ip) {
			return s.c
		}
	}
	return ClassPublic
}

// metadata are the cloud instance metadata addresses, named in messages
// because reaching one from a page is the classic SSRF.
var metadata = map[netip.Addr]string{
	netip.MustParseAddr("169.254.169.254"): "cloud instance metadata (AWS, GCP, Azure, …)",
	netip.MustParseAddr("169.254.170.2"):   "AWS ECS task metadata",
	netip.MustParseAddr("100.100.100.200"): "Alibaba Cloud metadata",
	netip.MustParseAddr("fd00:ec2::254"):   "AWS instance metadata (IPv6)",
}

// allows reports whether access a lets a page reach class c.
func (a Access) allows(c Class) bool {
	switch {
	case c == ClassPublic, a == AccessAll:
		return true
	case c == ClassLoopback:
		return a == AccessLoopback
	}
	return false
}
