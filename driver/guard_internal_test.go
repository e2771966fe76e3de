package driver

import (
	"errors"
	"net/netip"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/policy"
)

// TestPrivateAddressHintSaysWhereTheSettingGoes: the setting that lets a
// page reach a private address is the daemon's, so the hint names the
// restart that applies it; "pass --private-network" alone on the next
// command was met by a second error asking for the restart.
func TestPrivateAddressHintSaysWhereTheSettingGoes(t *testing.T) {
	err := blockedErr("http://10.0.0.5/", &policy.PrivateAddressError{Addr: netip.MustParseAddr("10.0.0.5"), Class: policy.ClassPrivate, Access: policy.AccessLoopback})
	if !errors.Is(err, calls.ErrBlockedURL) {
		t.Fatalf("%v, want blocked_url", err)
	}
	if h := calls.Hint(err); !strings.Contains(h, "daemon restart") || !strings.Contains(h, "--private-network") {
		t.Errorf("hint %q, want --private-network and the daemon restart that applies it", h)
	}
}
