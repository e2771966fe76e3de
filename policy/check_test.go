package policy

import (
	"context"
	"errors"
	"net/netip"
	"net/url"
	"strings"
	"testing"
)

// fakeResolver answers from a table; a host with several answers gives
// them in turn, one per lookup, and repeats the last.
type fakeResolver struct {
	answers map[string][][]string
	calls   map[string]int
}

func (f *fakeResolver) LookupNetIP(_ context.Context, network, host string) ([]netip.Addr, error) {
	if network != "ip" {
		return nil, errors.New("unexpected network " + network)
	}
	if f.calls == nil {
		f.calls = map[string]int{}
	}
	seq, ok := f.answers[host]
	if !ok {
		return nil, errors.New("no such host")
	}
	i := min(f.calls[host], len(seq)-1)
	f.calls[host]++
	var out []netip.Addr
	for _, s := range seq[i] {
		out = append(out, netip.MustParseAddr(s))
	}
	return out, nil
}

func newFake() *fakeResolver {
	return &fakeResolver{answers: map[string][][]string{
		"public.test":   {{"93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"}},
		"mixed.test":    {{"93.184.215.14", "10.0.0.7"}},
		"intranet.test": {{"192.168.1.10"}},
		"metadata.test": {{"169.254.169.254"}},
		"mapped.test":   {{"::ffff:10.0.0.1"}},
		"nat64.test":    {{"64:ff9b::c0a8:1"}},
		"loop.test":     {{"127.0.0.1"}},
		"rebind.test":   {{"93.184.215.14"}, {"127.0.0.1"}, {"10.0.0.1"}},
		"empty.test":    {{}},
	}}
}

func TestCheckHost(t *testing.T) {
	tests := []struct {
		host   string
		access Access
		class  Class // "" allowed; "error" a non-policy error
	}{
		{"public.test", AccessNone, ""},
		{"mixed.test", AccessLoopback, ClassPrivate},
		{"mixed.test", AccessAll, ""},
		{"intranet.test", AccessLoopback, ClassPrivate},
		{"metadata.test", AccessLoopback, ClassLinkLocal},
		{"mapped.test", AccessLoopback, ClassPrivate},
		{"nat64.test", AccessLoopback, ClassPrivate},
		{"loop.test", AccessLoopback, ""},
		{"loop.test", AccessNone, ClassLoopback},
		{"localhost", AccessLoopback, ""},
		{"LOCALHOST.", AccessNone, ClassLoopback},
		{"app.localhost", AccessNone, ClassLoopback},
		{"127.0.0.1", AccessLoopback, ""},
		{"[::1]", AccessNone, ClassLoopback},
		{"::ffff:169.254.169.254", AccessLoopback, ClassLinkLocal},
		{"2852039166", AccessLoopback, ClassLinkLocal}, // 169.254.169.254
		{"8.8.8.8", AccessNone, ""},
		{"unknown.test", AccessLoopback, "error"},
		{"empty.test", AccessLoopback, "error"},
	}
	for _, tt := range tests {
		t.Run(tt.host+"/"+string(tt.access), func(t *testing.T) {
			p, err := New(Options{PrivateNetwork: tt.access})
			if err != nil {
				t.Fatal(err)
			}
			err = p.CheckHost(context.Background(), tt.host, newFake())
			switch tt.class {
			case "":
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
			case "error":
				if err == nil || errors.Is(err, ErrPrivateAddress) {
					t.Fatalf("err = %v, want a lookup error", err)
				}
			default:
				var pe *PrivateAddressError
				if !errors.As(err, &pe) {
					t.Fatalf("err = %v, want a PrivateAddressError", err)
				}
				if pe.Class != tt.class {
					t.Errorf("class = %s, want %s", pe.Class, tt.class)
				}
			}
		})
	}
}

// TestCheckHostNoDNS checks that literals, localhost and Access "all" never
// reach the resolver.
func TestCheckHostNoDNS(t *testing.T) {
	f := &fakeResolver{answers: map[string][][]string{}}
	for _, access := range []Access{AccessNone, AccessLoopback, AccessAll} {
		p, _ := New(Options{PrivateNetwork: access})
		for _, h := range []string{"127.0.0.1", "[fe80::1]", "localhost", "a.b.localhost", "0x7f.1"} {
			_ = p.CheckHost(context.Background(), h, f)
		}
	}
	p, _ := New(Options{PrivateNetwork: AccessAll})
	if err := p.CheckHost(context.Background(), "anything.test", f); err != nil {
		t.Errorf("access all: %v", err)
	}
	if len(f.calls) != 0 {
		t.Errorf("resolver called: %v", f.calls)
	}
}

// TestCheckHostRebinding checks that each call resolves afresh: a name that
// answers with a public address first and a private one next is allowed
// once and refused the next time.
func TestCheckHostRebinding(t *testing.T) {
	p, _ := New(Options{})
	f := newFake()
	ctx := context.Background()
	if err := p.CheckHost(ctx, "rebind.test", f); err != nil {
		t.Fatalf("first lookup: %v", err)
	}
	if err := p.CheckHost(ctx, "rebind.test", f); err != nil {
		t.Fatalf("second lookup (loopback, allowed by default): %v", err)
	}
	err := p.CheckHost(ctx, "rebind.test", f)
	var pe *PrivateAddressError
	if !errors.As(err, &pe) || pe.Addr != netip.MustParseAddr("10.0.0.1") {
		t.Fatalf("third lookup: err = %v, want 10.0.0.1 refused", err)
	}
	if f.calls["rebind.test"] != 3 {
		t.Errorf("lookups = %d, want 3 (no cache)", f.calls["rebind.test"])
	}
}

func TestCheckHostMixedMessage(t *testing.T) {
	p, _ := New(Options{})
	err := p.CheckHost(context.Background(), "mixed.test", newFake())
	want := `"mixed.test" resolves to 10.0.0.7 (one of its 2 addresses), a private address`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got  %v\nwant %s…", err, want)
	}
}

func TestCheck(t *testing.T) {
	p, _ := New(Options{Block: []string{"blocked.test"}})
	f := newFake()
	tests := []struct {
		url  string
		want error
	}{
		{"https://public.test/", nil},
		{"https://intranet.test/", ErrPrivateAddress},
		{"https://blocked.test/", ErrBlockedURL},
		{"http://[::ffff:a00:1]/", ErrPrivateAddress},
		{"about:blank", nil},
		{"data:,hi", nil},
		{"blob:https://mixed.test/uuid", ErrPrivateAddress},
	}
	for _, tt := range tests {
		u, _ := url.Parse(tt.url)
		err := p.Check(context.Background(), u, f)
		if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
			t.Errorf("Check(%s) = %v, want %v", tt.url, err, tt.want)
		}
	}
}

// TestAddrs: the addresses to connect to are the ones judged, for names,
// literals and localhost, and a refusal gives none.
func TestAddrs(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		host   string
		access Access
		want   string // addresses joined by space; "" when refused
	}{
		{"public.test", AccessNone, "93.184.215.14 2606:2800:21f:cb07:6820:80da:af6b:8b2c"},
		{"mixed.test", AccessLoopback, ""},
		{"mixed.test", AccessAll, "93.184.215.14 10.0.0.7"}, // resolved even with "all": the caller dials them
		{"mapped.test", AccessAll, "10.0.0.1"},              // dialled as the IPv4 address it carries
		{"loop.test", AccessLoopback, "127.0.0.1"},
		{"loop.test", AccessNone, ""},
		{"93.184.215.14", AccessNone, "93.184.215.14"},
		{"[::1]", AccessLoopback, "::1"},
		{"10.0.0.1", AccessLoopback, ""},
		{"localhost", AccessLoopback, "::1 127.0.0.1"},
		{"localhost", AccessNone, ""},
	}
	for _, tt := range tests {
		t.Run(tt.host+" "+string(tt.access), func(t *testing.T) {
			p, err := New(Options{PrivateNetwork: tt.access})
			if err != nil {
				t.Fatal(err)
			}
			addrs, err := p.Addrs(ctx, tt.host, newFake())
			var got []string
			for _, a := range addrs {
				got = append(got, a.String())
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("Addrs = %v, %v; want %q", got, err, tt.want)
			}
			if (tt.want == "") != (err != nil) {
				t.Errorf("err = %v, want a refusal only when no addresses are given", err)
			}
		})
	}
}
