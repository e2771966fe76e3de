package policy

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		ip   string
		want Class
	}{
		// IPv4 boundaries.
		{"0.0.0.0", ClassUnspecified},
		{"0.1.2.3", ClassReserved},
		{"1.1.1.1", ClassPublic},
		{"9.255.255.255", ClassPublic},
		{"10.0.0.0", ClassPrivate},
		{"10.255.255.255", ClassPrivate},
		{"11.0.0.0", ClassPublic},
		{"100.63.255.255", ClassPublic},
		{"100.64.0.0", ClassShared},
		{"100.100.100.200", ClassShared},
		{"100.127.255.255", ClassShared},
		{"100.128.0.0", ClassPublic},
		{"126.255.255.255", ClassPublic},
		{"127.0.0.1", ClassLoopback},
		{"127.255.255.254", ClassLoopback},
		{"128.0.0.0", ClassPublic},
		{"169.253.255.255", ClassPublic},
		{"169.254.0.0", ClassLinkLocal},
		{"169.254.169.254", ClassLinkLocal},
		{"169.254.255.255", ClassLinkLocal},
		{"169.255.0.0", ClassPublic},
		{"172.15.255.255", ClassPublic},
		{"172.16.0.0", ClassPrivate},
		{"172.31.255.255", ClassPrivate},
		{"172.32.0.0", ClassPublic},
		{"192.0.0.8", ClassReserved},
		{"192.0.2.1", ClassReserved},
		{"192.167.255.255", ClassPublic},
		{"192.168.0.0", ClassPrivate},
		{"192.168.255.255", ClassPrivate},
		{"192.169.0.0", ClassPublic},
		{"198.17.255.255", ClassPublic},
		{"198.18.0.0", ClassReserved},
		{"198.19.255.255", ClassReserved},
		{"198.20.0.0", ClassPublic},
		{"203.0.113.7", ClassReserved},
		{"223.255.255.255", ClassPublic},
		{"224.0.0.1", ClassMulticast},
		{"239.255.255.255", ClassMulticast},
		{"240.0.0.1", ClassReserved},
		{"255.255.255.254", ClassReserved},
		{"255.255.255.255", ClassBroadcast},
		// IPv6.
		{"::", ClassUnspecified},
		{"::1", ClassLoopback},
		{"::2", ClassReserved},
		{"::127.0.0.1", ClassReserved},
		{"2606:4700::1111", ClassPublic},
		{"fbff:ffff::1", ClassPublic},
		{"fc00::", ClassPrivate},
		{"fd00:ec2::254", ClassPrivate},
		{"fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", ClassPrivate},
		{"fe00::1", ClassPublic},
		{"fe7f:ffff::1", ClassPublic},
		{"fe80::", ClassLinkLocal},
		{"fe80::1%eth0", ClassLinkLocal},
		{"febf:ffff::1", ClassLinkLocal},
		{"fec0::1", ClassPrivate},
		{"ff02::1", ClassMulticast},
		{"2001:db8::1", ClassReserved},
		{"2001:0:4136:e378:8000:63bf:3fff:fdd2", ClassReserved},
		{"100::1", ClassReserved},
		// IPv4 inside IPv6.
		{"::ffff:10.0.0.1", ClassPrivate},
		{"::ffff:127.0.0.1", ClassLoopback},
		{"::ffff:169.254.169.254", ClassLinkLocal},
		{"::ffff:8.8.8.8", ClassPublic},
		{"::ffff:0:10.0.0.1", ClassReserved},
		{"64:ff9b::10.0.0.1", ClassPrivate},
		{"64:ff9b::a9fe:a9fe", ClassLinkLocal},
		{"64:ff9b::7f00:1", ClassLoopback},
		{"64:ff9b::8.8.8.8", ClassPublic},
		{"64:ff9b:1::a00:1", ClassPrivate},
		{"2002:c0a8:0101::1", ClassPrivate}, // 6to4 of 192.168.1.1
		{"2002:0808:0808::1", ClassPublic},  // 6to4 of 8.8.8.8
		{"2002:7f00:1::", ClassLoopback},
	}
	for _, tt := range tests {
		t.Run(tt.ip, func(t *testing.T) {
			if got := Classify(netip.MustParseAddr(tt.ip)); got != tt.want {
				t.Errorf("Classify(%s) = %s, want %s", tt.ip, got, tt.want)
			}
		})
	}
	if got := Classify(netip.Addr{}); got != ClassReserved {
		t.Errorf("Classify(invalid) = %s", got)
	}
}

func TestCheckAddrAccess(t *testing.T) {
	ips := []string{"8.8.8.8", "127.0.0.1", "::1", "10.1.2.3", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::ffff:192.168.0.1", "ff02::1", "255.255.255.255"}
	want := map[Access][]bool{
		AccessNone:     {true, false, false, false, false, false, false, false, false, false},
		AccessLoopback: {true, true, true, false, false, false, false, false, false, false},
		AccessAll:      {true, true, true, true, true, true, true, true, true, true},
	}
	for access, oks := range want {
		p, err := New(Options{PrivateNetwork: access})
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range ips {
			err := p.CheckAddr(netip.MustParseAddr(s))
			if (err == nil) != oks[i] {
				t.Errorf("access %s, %s: err = %v, want allowed %v", access, s, err, oks[i])
			}
			if err != nil {
				var pe *PrivateAddressError
				if !errors.As(err, &pe) || !errors.Is(err, ErrPrivateAddress) || pe.Access != access {
					t.Errorf("access %s, %s: err = %#v", access, s, err)
				}
			}
		}
	}
}

func TestZeroOptionsIsLoopback(t *testing.T) {
	p, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Access() != AccessLoopback {
		t.Fatalf("Access() = %q", p.Access())
	}
	if err := p.CheckAddr(netip.MustParseAddr("127.0.0.1")); err != nil {
		t.Error(err)
	}
	if err := p.CheckAddr(netip.MustParseAddr("192.168.1.1")); err == nil {
		t.Error("192.168.1.1 allowed by default")
	}
}

func TestParseAccess(t *testing.T) {
	for in, want := range map[string]Access{"": AccessLoopback, "none": AccessNone, " ALL ": AccessAll, "loopback": AccessLoopback} {
		if got, err := ParseAccess(in); err != nil || got != want {
			t.Errorf("ParseAccess(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseAccess("private"); err == nil {
		t.Error("ParseAccess(private) succeeded")
	}
	if _, err := New(Options{PrivateNetwork: "some"}); err == nil {
		t.Error("New with a bad access succeeded")
	}
}

func TestPrivateAddressErrorMessage(t *testing.T) {
	p, _ := New(Options{})
	err := p.CheckAddr(netip.MustParseAddr("169.254.169.254"))
	want := `169.254.169.254, a link-local address (cloud instance metadata (AWS, GCP, Azure, …)); pages may not reach it with private_network = "loopback"; set private_network = "all" in [policy] in waymark.toml or pass --private-network=all to allow it`
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	p, _ = New(Options{PrivateNetwork: AccessNone})
	err = p.CheckAddr(netip.MustParseAddr("127.0.0.1"))
	if err == nil || !strings.Contains(err.Error(), `private_network = "loopback"`) {
		t.Errorf("loopback refusal should suggest loopback: %v", err)
	}
}
