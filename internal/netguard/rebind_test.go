package netguard

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"
)

// rebindingDNS answers rebind.test with a public address the first time and
// refuses it every time after, as the policy would once the name turns to
// a private address.
func rebindingDNS() *fakeDNS {
	return newFakeDNS(func(host string, call int) ([]netip.Addr, error) {
		if call == 0 {
			return []netip.Addr{publicAddr}, nil
		}
		return nil, fmt.Errorf("%q resolves to %s: %w", host, privateAddr, errPrivate)
	})
}

func TestRebinding(t *testing.T) {
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "public")
	}))
	defer plain.Close()
	tls := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "public")
	}))
	defer tls.Close()

	modes := []struct {
		name   string
		url    string
		port   uint16
		client func(t *testing.T, p *Proxy) *http.Client
	}{
		{"http", "http://rebind.test/", 80, func(t *testing.T, p *Proxy) *http.Client {
			return proxied(t, p, nil)
		}},
		{"connect", "https://rebind.test/", 443, func(t *testing.T, p *Proxy) *http.Client {
			tr := tls.Client().Transport.(*http.Transport).Clone()
			tr.TLSClientConfig.ServerName = "example.com"
			tr.DisableKeepAlives = true // a new CONNECT, so a new dial, per request
			return proxied(t, p, tr)
		}},
	}
	for _, m := range modes {
		fn := newFakeNet()
		fn.route(publicAddr, 80, plain.Listener.Addr().String())
		fn.route(publicAddr, 443, tls.Listener.Addr().String())
		// Stands in for the navigation check: the one resolution that was
		// checked, whose answer is then pinned.
		checked := func(t *testing.T, dns *fakeDNS) []netip.Addr {
			addrs, err := dns.Resolve(t.Context(), "rebind.test")
			if err != nil {
				t.Fatal(err)
			}
			return addrs
		}

		t.Run(m.name+"/pin holds", func(t *testing.T) {
			dns := rebindingDNS()
			p := startProxy(t, dns, fn, 0)
			p.Pin("Rebind.Test", checked(t, dns)) // case does not matter
			if !p.Pinned("rebind.test:443") {
				t.Errorf("Pinned(rebind.test:443) = false after Pin")
			}
			client := m.client(t, p)
			for i := range 2 {
				resp, err := client.Get(m.url)
				if err != nil {
					t.Fatalf("request %d: %v", i, err)
				}
				if body := readBody(t, resp); resp.StatusCode != http.StatusOK || body != "public" {
					t.Errorf("request %d: got %d %q, want the public server", i, resp.StatusCode, body)
				}
			}
			if n := dns.Calls("rebind.test"); n != 1 {
				t.Errorf("rebind.test resolved %d times, want only the check's 1", n)
			}
			if n := len(fn.Dials()); m.name == "connect" && n != 2 {
				t.Errorf("%d dials, want 2: one per CONNECT, both to the pinned address", n)
			}
		})

		t.Run(m.name+"/expired pin resolves again", func(t *testing.T) {
			const ttl = time.Millisecond
			dns := rebindingDNS()
			p := startProxy(t, dns, fn, ttl)
			p.Pin("rebind.test", checked(t, dns))
			for pinned := time.Now(); time.Since(pinned) <= ttl; {
				time.Sleep(ttl / 4)
			}
			if p.Pinned("rebind.test") {
				t.Errorf("Pinned(rebind.test) = true after the TTL")
			}
			resp, err := m.client(t, p).Get(m.url)
			if m.name == "http" {
				if err != nil {
					t.Fatal(err)
				}
				if body := readBody(t, resp); resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "10.0.0.5") {
					t.Errorf("got %d %q, want 403 naming 10.0.0.5", resp.StatusCode, body)
				}
			} else if err == nil {
				readBody(t, resp)
				t.Errorf("https request got through with status %d; want the CONNECT refused", resp.StatusCode)
			}
			if n := dns.Calls("rebind.test"); n != 2 {
				t.Errorf("rebind.test resolved %d times, want 2 (the check, then the proxy)", n)
			}
			if rs := p.Refusals(); len(rs) != 1 || rs[0].Host != "rebind.test" {
				t.Errorf("Refusals() = %v, want rebind.test", rs)
			}
		})

		for _, d := range fn.Dials() {
			if strings.HasPrefix(d, privateAddr.String()) {
				t.Errorf("%s: dialed %s", m.name, d)
			}
		}
		if want := fmt.Sprintf("93.184.216.34:%d", m.port); slices.ContainsFunc(fn.Dials(), func(d string) bool { return d != want }) {
			t.Errorf("%s: dials %v, want only %s", m.name, fn.Dials(), want)
		}
	}
}
