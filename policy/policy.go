package policy

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// Access is how much of the non-public network a page may reach.
type Access string

const (
	// AccessNone refuses every non-public address, loopback included.
	AccessNone Access = "none"
	// AccessLoopback allows loopback (127.0.0.0/8, ::1, localhost) so local
	// development servers work, and refuses the rest. It is the default.
	AccessLoopback Access = "loopback"
	// AccessAll allows every address: the address check is off.
	AccessAll Access = "all"
)

// ParseAccess parses a private_network setting; "" is the default,
// [AccessLoopback].
func ParseAccess(s string) (Access, error) {
	switch a := Access(strings.ToLower(strings.TrimSpace(s))); a {
	case "":
		return AccessLoopback, nil
	case AccessNone, AccessLoopback, AccessAll:
		return a, nil
	}
	return "", fmt.Errorf("policy: private_network %q: want \"none\", \"loopback\" or \"all\"", s)
}

// Options configures a [Policy]. The zero value is valid: every host is
// allowed, and only loopback among non-public addresses.
type Options struct {
	// Allow lists the rules a URL must match (see the package doc for their
	// forms); empty allows every URL not blocked.
	Allow []string
	// Block lists the rules a URL must not match; Block wins over Allow.
	Block []string
	// PrivateNetwork is what non-public addresses pages may reach; "" means
	// [AccessLoopback].
	PrivateNetwork Access
	// Files lets the browser open local files (file: URLs on this
	// machine), as Playwright and agent-browser do; off by default, since
	// a page of a file can read the folder it sits in. Even on, a page
	// from the web never reaches a file: the driver lets a file: document
	// load only when waymark asked for it or a file's page did
	// (driver/guard.go), and Chromium refuses a web page's file:
	// subresources.
	Files bool
}

// Policy is a parsed [Options]. It is immutable and safe for concurrent use.
type Policy struct {
	allow  []rule
	block  []rule
	access Access
	files  bool
}

// New parses opts. An error names the entry that does not parse.
func New(opts Options) (*Policy, error) {
	access, err := ParseAccess(string(opts.PrivateNetwork))
	if err != nil {
		return nil, err
	}
	p := &Policy{access: access, files: opts.Files}
	if p.allow, err = parseRules("allow", opts.Allow); err != nil {
		return nil, err
	}
	if p.block, err = parseRules("block", opts.Block); err != nil {
		return nil, err
	}
	return p, nil
}

// Files reports whether local files may be opened ([Options.Files]).
func (p *Policy) Files() bool { return p.files }

// Access returns the private network setting in effect.
func (p *Policy) Access() Access { return p.access }

// Check is [Policy.CheckURL] followed, for a URL with a host, by
// [Policy.CheckHost]: the whole decision for one navigation or redirect.
func (p *Policy) Check(ctx context.Context, u *url.URL, r Resolver) error {
	if err := p.CheckURL(u); err != nil {
		return err
	}
	host := hostOf(u)
	if host == "" {
		return nil // about:blank, data:; CheckURL has judged them
	}
	return p.CheckHost(ctx, host, r)
}

// Errors a caller branches on with errors.Is.
var (
	// ErrBlockedURL is the category of [*BlockedError].
	ErrBlockedURL = errors.New("blocked by the URL policy")
	// ErrPrivateAddress is the category of [*PrivateAddressError].
	ErrPrivateAddress = errors.New("refused private network address")
)

// Reasons a URL is blocked, in [BlockedError.Reason].
const (
	ReasonScheme     = "scheme"      // a scheme the browser may not open
	ReasonBlocked    = "blocked"     // a Block rule matches
	ReasonNotAllowed = "not-allowed" // no Allow rule matches
	ReasonBadURL     = "bad-url"     // no host, or a host that cannot be parsed
	ReasonFile       = "file"        // a local file, with [Options.Files] off
	// ReasonFileFromWeb is a local file a page from the web asked for
	// (the driver's guard): refused whatever [Options.Files] says.
	ReasonFileFromWeb = "file-from-web"
)

// maxURL caps the URL in messages: a data: URL or a tracking redirect can
// run to megabytes.
const maxURL = 200

// BlockedError is a URL the policy refuses.
//
// Its text says what was refused and why, in words for any reader: what
// to change (a list in waymark.toml, a flag, policy.Options) depends on
// where the policy came from, and is the front's to say. The driver's
// refusal carries it as a hint, which each front words its own way.
type BlockedError struct {
	URL    string // the URL as given
	Reason string // one of the Reason constants
	Rule   string // the matching Block rule, for ReasonBlocked
}

func (e *BlockedError) Error() string {
	u := e.URL
	if len(u) > maxURL {
		u = u[:maxURL] + "…"
	}
	switch e.Reason {
	case ReasonBlocked:
		return fmt.Sprintf("%q is blocked by the policy rule %q", u, e.Rule)
	case ReasonNotAllowed:
		return fmt.Sprintf("%q is not in the policy's allow list", u)
	case ReasonScheme:
		return fmt.Sprintf("%q is refused: waymark opens only http, https, about:blank and data: URLs, and local files when allowed", u)
	case ReasonFile:
		return fmt.Sprintf("%q is refused: the policy does not allow local files", u)
	case ReasonFileFromWeb:
		return fmt.Sprintf("%q is refused: a page from the web may not open a local file; only an open asked for outright, or a local file's own page, may", u)
	default:
		return fmt.Sprintf("%q is refused: it has no host the policy can check", u)
	}
}

func (e *BlockedError) Unwrap() error { return ErrBlockedURL }
