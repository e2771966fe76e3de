package netguard

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"sync"
	"testing"
)

// TestConcurrentUse runs plain and tunneled requests side by side while pins
// change under them; run with -race.
func TestConcurrentUse(t *testing.T) {
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, r.Host)
	}))
	t.Cleanup(plain.Close)
	tls := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, r.Host)
	}))
	t.Cleanup(tls.Close)
	fn := newFakeNet()
	fn.route(publicAddr, 80, plain.Listener.Addr().String())
	fn.route(publicAddr, 443, tls.Listener.Addr().String())
	p := startProxy(t, publicDNS(), fn, 0)
	httpClient := proxied(t, p, nil)
	tr := tls.Client().Transport.(*http.Transport).Clone()
	tr.TLSClientConfig.ServerName = "example.com"
	httpsClient := proxied(t, p, tr)

	stop := make(chan struct{})
	churned := make(chan struct{})
	go func() { // ends when stop closes
		defer close(churned)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			host := fmt.Sprintf("h%d.test", i%4)
			if i%3 == 0 {
				p.Pin(host, nil)
			} else {
				p.Pin(host, []netip.Addr{publicAddr})
			}
			_ = p.Refusals()
		}
	}()

	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := range 8 {
		wg.Go(func() {
			for i := range 8 {
				host := fmt.Sprintf("h%d.test", (w+i)%4)
				client, scheme := httpClient, "http"
				if i%2 == 1 {
					client, scheme = httpsClient, "https"
				}
				resp, err := client.Get(scheme + "://" + host + "/")
				if err != nil {
					errs <- err
					return
				}
				b, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil || string(b) != host {
					errs <- fmt.Errorf("%s://%s: got %q, %v", scheme, host, b, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	<-churned
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if rs := p.Refusals(); len(rs) != 0 {
		t.Errorf("Refusals() = %v, want none", rs)
	}
}
