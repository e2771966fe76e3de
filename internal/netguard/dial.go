package netguard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"time"
)

// resolveTimeout bounds one call to Options.Resolve. Go's own resolver may
// spend 2 tries × 5 s on one name server; a little more than that leaves
// room for the policy's work without holding a browser request for long.
const resolveTimeout = 15 * time.Second

// refusedError is a host that Options.Resolve refused. It tells the two
// request paths to answer 403 rather than 502.
type refusedError struct {
	host string
	err  error
}

func (e *refusedError) Error() string {
	return fmt.Sprintf("waymark refused %s: %v", e.host, e.err)
}

func (e *refusedError) Unwrap() error { return e.err }

// errNoAddrs stands in when Resolve returns neither addresses nor an error.
var errNoAddrs = errors.New("no addresses to connect to")

// splitHostPort splits a CONNECT target or a Transport dial address into the
// host (without brackets) and a port from 1 to 65535.
func splitHostPort(hostport string) (string, uint16, error) {
	host, portStr, err := net.SplitHostPort(hostport)
	if err != nil {
		return "", 0, fmt.Errorf("%q is not host:port: %w", hostport, err)
	}
	port, err := strconv.ParseUint(portStr, 10, 16)
	if err != nil || port == 0 || host == "" {
		return "", 0, fmt.Errorf("%q is not host:port with a port from 1 to 65535", hostport)
	}
	return host, uint16(port), nil
}

// addrsFor returns the checked addresses for host: its live pin, or what
// Resolve says now. A refusal comes back as *refusedError, already recorded
// and logged.
func (p *Proxy) addrsFor(ctx context.Context, host string) ([]netip.Addr, error) {
	if addrs, ok := p.pins.get(host); ok {
		return addrs, nil
	}
	rctx, cancel := context.WithTimeout(ctx, resolveTimeout)
	defer cancel()
	addrs, err := p.resolve(rctx, host)
	if err != nil && ctx.Err() != nil {
		// The browser gave up or the proxy is closing: nobody was
		// refused, so record nothing. (Our own timeout running out is a
		// failed lookup, and that does refuse.)
		return nil, fmt.Errorf("resolve %s: %w", hostKey(host), context.Cause(ctx))
	}
	if err == nil {
		addrs = validAddrs(addrs)
		if len(addrs) == 0 {
			err = errNoAddrs
		}
	}
	if err != nil {
		key := hostKey(host)
		p.refusals.add(Refusal{Host: key, Err: err, At: time.Now()})
		p.log.Info("netguard: refused host", "host", key, "err", err)
		return nil, &refusedError{host: key, err: err}
	}
	return addrs, nil
}

// validAddrs drops zero addresses, which a careless Resolve might return and
// which would otherwise reach the dialer as "invalid AddrPort".
func validAddrs(addrs []netip.Addr) []netip.Addr {
	out := addrs[:0:0]
	for _, a := range addrs {
		if a.IsValid() {
			out = append(out, a)
		}
	}
	return out
}

// dialChecked connects to host:port through a checked address, trying each
// in order until one connects.
func (p *Proxy) dialChecked(ctx context.Context, host string, port uint16) (net.Conn, error) {
	addrs, err := p.addrsFor(ctx, host)
	if err != nil {
		return nil, err
	}
	var errs []error
	for _, a := range addrs {
		if ctx.Err() != nil {
			errs = append(errs, context.Cause(ctx))
			break
		}
		target := netip.AddrPortFrom(a, port).String()
		conn, err := p.dial(ctx, "tcp", target)
		if err == nil {
			return conn, nil
		}
		p.log.Debug("netguard: dial failed", "host", hostKey(host), "addr", target, "err", err)
		errs = append(errs, err)
	}
	return nil, fmt.Errorf("connect to %s: %w", net.JoinHostPort(host, strconv.Itoa(int(port))), errors.Join(errs...))
}

// oneLine keeps an error's text to one line for a status line's body.
func oneLine(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' }), " ")
}
