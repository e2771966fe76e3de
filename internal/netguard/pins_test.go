package netguard

import (
	"errors"
	"fmt"
	"net/netip"
	"reflect"
	"testing"
	"time"
)

func TestPinTable(t *testing.T) {
	a := []netip.Addr{netip.MustParseAddr("93.184.216.34")}
	b := []netip.Addr{netip.MustParseAddr("2606:2800:220:1::1"), netip.MustParseAddr("93.184.216.35")}
	now := time.Unix(1000, 0)
	pins := newPinTable(time.Minute, func() time.Time { return now })

	pins.set("Example.COM", a)
	for _, host := range []string{"example.com", "EXAMPLE.com", "example.com:443"} {
		if got, ok := pins.get(host); !ok || !reflect.DeepEqual(got, a) {
			t.Errorf("get(%q) = %v, %v; want %v", host, got, ok, a)
		}
	}
	if _, ok := pins.get("other.com"); ok {
		t.Errorf("get(other.com) found a pin")
	}

	pins.set("example.com", b) // replaces
	if got, _ := pins.get("example.com"); !reflect.DeepEqual(got, b) {
		t.Errorf("after replace: %v, want %v", got, b)
	}
	got, _ := pins.get("example.com")
	got[0] = netip.Addr{} // callers cannot reach into the table
	if again, _ := pins.get("example.com"); !reflect.DeepEqual(again, b) {
		t.Errorf("table changed through a returned slice: %v", again)
	}

	pins.set("example.com", nil) // removes
	if _, ok := pins.get("example.com"); ok {
		t.Errorf("pin still there after set(nil)")
	}

	pins.set("[::1]", a)
	if _, ok := pins.get("::1"); !ok {
		t.Errorf("bracketed literal not found by its bare form")
	}

	pins.set("late.test", a)
	now = now.Add(time.Minute - time.Nanosecond)
	if _, ok := pins.get("late.test"); !ok {
		t.Errorf("pin gone before its TTL")
	}
	now = now.Add(time.Nanosecond)
	if _, ok := pins.get("late.test"); ok {
		t.Errorf("pin live at its TTL")
	}
	// Expired pins are swept by the next set, so the table does not grow.
	pins.set("fresh.test", a)
	if n := len(pins.m); n != 1 {
		t.Errorf("%d pins after the sweep, want 1 (fresh.test)", n)
	}
}

func TestRefusalLogKeepsTheLatest(t *testing.T) {
	var l recent[Refusal]
	for i := range maxRecent + 5 {
		l.add(Refusal{Host: fmt.Sprint(i), Err: errors.New("no")})
	}
	rs := l.all()
	if len(rs) != maxRecent || rs[0].Host != "5" || rs[len(rs)-1].Host != fmt.Sprint(maxRecent+4) {
		t.Errorf("kept %d, first %q, last %q; want the latest %d, most recent last", len(rs), rs[0].Host, rs[len(rs)-1].Host, maxRecent)
	}
}

func TestStartNeedsResolve(t *testing.T) {
	p, err := Start(Options{})
	if err == nil {
		p.Close()
		t.Fatal("Start without Resolve succeeded")
	}
}
