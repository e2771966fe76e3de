package policy

import (
	"errors"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// errBadHost is returned by canonHost for a host no browser would open.
var errBadHost = errors.New("not a valid host")

// hostOf returns the host of u without brackets or port, "" for none.
// A blob: URL's host is the host of the origin it carries.
func hostOf(u *url.URL) string {
	if strings.EqualFold(u.Scheme, "blob") {
		if inner, err := url.Parse(u.Opaque); err == nil {
			return inner.Hostname()
		}
		return ""
	}
	return u.Hostname()
}

// canonHost returns host as Chromium would use it: lower case, without
// brackets or a trailing dot, and an IP address in its canonical form; an
// IPv4-mapped IPv6 address ([::ffff:127.0.0.2]) is the IPv4 address it
// reaches, so rules compare addresses, not spellings. The
// URL standard reads a host whose last label is a number as IPv4 in
// decimal, octal or hex, whole or in parts ("2130706433", "0x7f.1",
// "127.1"); Chromium connects to 127.0.0.1 for each, so they are read here
// the same way rather than sent to DNS.
func canonHost(host string) (string, netip.Addr, error) {
	h := strings.ToLower(strings.TrimSpace(host))
	if strings.HasPrefix(h, "[") {
		if !strings.HasSuffix(h, "]") {
			return "", netip.Addr{}, errBadHost
		}
		h = h[1 : len(h)-1]
		a, err := netip.ParseAddr(h)
		if err != nil || !a.Is6() {
			return "", netip.Addr{}, errBadHost
		}
		a = a.Unmap()
		return a.String(), a, nil
	}
	if strings.Contains(h, ":") {
		a, err := netip.ParseAddr(h)
		if err != nil {
			return "", netip.Addr{}, errBadHost
		}
		a = a.Unmap()
		return a.String(), a, nil
	}
	h = strings.TrimSuffix(h, ".")
	if h == "" {
		return "", netip.Addr{}, errBadHost
	}
	if endsInNumber(h) {
		a, ok := parseIPv4(h)
		if !ok {
			return "", netip.Addr{}, errBadHost
		}
		return a.String(), a, nil
	}
	return h, netip.Addr{}, nil
}

// endsInNumber reports whether the last label of h is a number, which makes
// h an IPv4 address or invalid (WHATWG URL, "ends in a number checker").
func endsInNumber(h string) bool {
	labels := strings.Split(h, ".")
	last := labels[len(labels)-1]
	if last == "" {
		return false
	}
	if strings.Trim(last, "0123456789") == "" {
		return true
	}
	if strings.HasPrefix(last, "0x") {
		return strings.Trim(last[2:], "0123456789abcdef") == ""
	}
	return false
}

// parseIPv4 is the URL standard's IPv4 parser.
func parseIPv4(h string) (netip.Addr, bool) {
	parts := strings.Split(h, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, ok := parseIPv4Number(p)
		if !ok {
			return netip.Addr{}, false
		}
		nums[i] = n
	}
	var v uint64
	for i, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, false
		}
		v |= n << (8 * (3 - i))
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, false
	}
	v |= last
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

func parseIPv4Number(p string) (uint64, bool) {
	if p == "" {
		return 0, false
	}
	base := 10
	switch {
	case strings.HasPrefix(p, "0x"):
		p, base = p[2:], 16
		if p == "" {
			return 0, true
		}
	case len(p) > 1 && p[0] == '0':
		p, base = p[1:], 8
	}
	n, err := strconv.ParseUint(p, base, 64)
	if err != nil || n > 1<<32 {
		return 0, false
	}
	return n, true
}

// isLocalhost reports whether host is localhost or a name under .localhost,
// which Chromium resolves to loopback itself, without DNS.
func isLocalhost(host string) bool {
	return host == "localhost" || strings.HasSuffix(host, ".localhost")
}
