// Package policy decides where the browser may go (shared/DESIGN.md,
// invariant 6): a URL policy of allow and block rules, and a refusal of
// private, link-local and other non-public addresses.
//
// The driver checks every navigation and every redirect:
//
//	p, err := policy.New(policy.Options{Block: []string{"*.ads.example"}})
//	…
//	if err := p.Check(ctx, u, net.DefaultResolver); err != nil {
//		// errors.Is(err, policy.ErrBlockedURL) or policy.ErrPrivateAddress
//	}
//
// # Rules
//
// An Allow or Block entry is one of:
//
//   - "*": every host.
//   - a host, "example.com": that host only, on any port and scheme. An IP
//     literal ("127.0.0.1", "[::1]") is a host too.
//   - a host glob, "*.example.com": every subdomain of example.com at any
//     depth, but not example.com itself (list both to mean both). A "*"
//     elsewhere matches any run of characters, dots included
//     ("ads*.example.com").
//   - a URL prefix, "https://example.com/app/": that scheme, host (which may
//     be a glob) and port, and the paths under that prefix. The prefix ends
//     on a segment boundary: "/app" matches "/app" and "/app/x" but not
//     "/application".
//
// Hosts are compared in lower case and in their ASCII (punycode) form, the
// form Chromium reports; a rule with non-ASCII letters is an error. Block
// wins over Allow, and an empty Allow list allows every host not blocked.
//
// # Addresses
//
// [Classify] sorts an address into a [Class]. Only [ClassPublic] is always
// allowed; [Options.PrivateNetwork] decides the rest (see [Access]). Notable
// choices: the shared address space 100.64.0.0/10 (carrier-grade NAT,
// Tailscale, and Alibaba Cloud's metadata at 100.100.100.200) is refused like
// private space; 0.0.0.0 and :: are refused unless Access is "all", because
// connecting to them reaches the local host on Linux and macOS; IPv4-mapped,
// NAT64 (64:ff9b::/96) and 6to4 (2002::/16) addresses are judged by the IPv4
// address they carry.
//
// # DNS rebinding
//
// [Policy.CheckHost] resolves a name and refuses it when any of its
// addresses is refused, so a name that answers with a public and a private
// address is refused. Each call resolves afresh; nothing is cached. The check
// is not the end of the story: Chromium would resolve the name again when
// it connects, and a hostile DNS server can answer differently then. So the
// driver does not let it: Chromium reaches the network through the
// daemon's proxy (internal/netguard), which connects only to addresses from
// [Policy.Addrs], pinned by the navigation's own check or resolved and
// judged by the proxy itself. This package only decides.
package policy
