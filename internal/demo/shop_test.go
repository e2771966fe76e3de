package demo

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestProducts(t *testing.T) {
	tests := []struct {
		query      string
		wantStatus int
		want       []string
		notWant    []string
	}{
		{"", http.StatusOK, []string{"Page 1 of 3", "Trail Mug", "Water Bottle", `href="/products?page=2">Next`}, []string{"Tea Sampler", ">Previous<"}},
		{"?page=2", http.StatusOK, []string{"Page 2 of 3", "Tea Sampler", `href="/products?page=1">Previous`, `href="/products?page=3">Next`, `aria-current="page">2<`}, []string{"Trail Mug", "Bike Light"}},
		{"?page=3", http.StatusOK, []string{"Page 3 of 3", "Bike Light", `>Previous<`}, []string{">Next<"}},
		{"?page=4", http.StatusNotFound, []string{"no such page"}, nil},
		{"?page=x", http.StatusNotFound, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			_, b := newSite(t)
			r := b.get("/products" + tt.query)
			wantStatus(t, r, tt.wantStatus)
			wantContains(t, r.Body, tt.want...)
			for _, s := range tt.notWant {
				if strings.Contains(r.Body, s) {
					t.Errorf("body contains %q", s)
				}
			}
			if tt.wantStatus == http.StatusOK {
				if n := strings.Count(r.Body, `class="product-card"`); n != productsPerPage {
					t.Errorf("%d products on the page, want %d", n, productsPerPage)
				}
			}
		})
	}
}

func TestProductPage(t *testing.T) {
	_, b := newSite(t)
	r := b.get("/products/12")
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r.Body, "<h1>Chef Knife</h1>", "$89.00", "carbon steel", `id="qty"`, "Add to cart", "Cart (0)")
	wantStatus(t, b.get("/products/25"), http.StatusNotFound)
	wantStatus(t, b.get("/products/abc"), http.StatusNotFound)
}

func TestCartAPI(t *testing.T) {
	site, b := newSite(t)
	b.get("/products/3") // the visit sets the cookie, as in a browser

	add := func(body string) (reply, cartReply) {
		t.Helper()
		r := b.post("/api/cart", "application/json", strings.NewReader(body))
		var cr cartReply
		if r.Status == http.StatusOK {
			if err := json.Unmarshal([]byte(r.Body), &cr); err != nil {
				t.Fatalf("reply %q: %v", r.Body, err)
			}
		}
		return r, cr
	}
	if _, cr := add(`{"id": 3, "qty": 2}`); cr.Count != 2 {
		t.Errorf("count = %d, want 2", cr.Count)
	}
	if _, cr := add(`{"id": 3}`); cr.Count != 3 || len(cr.Items) != 1 {
		t.Errorf("after a second add of the same product: %+v", cr)
	}
	r := b.postForm("/api/cart", url.Values{"id": {"5"}, "qty": {"1"}})
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r.Body, `"count":4`)

	for body, status := range map[string]int{
		`{"id": 99}`:           http.StatusNotFound,
		`{"id": 1, "qty": -1}`: http.StatusBadRequest,
		`not json`:             http.StatusBadRequest,
	} {
		if r, _ := add(body); r.Status != status {
			t.Errorf("POST %s: status %d, want %d", body, r.Status, status)
		}
	}

	st := site.Session(b.sid())
	if st.CartCount() != 4 || len(st.Cart) != 2 {
		t.Fatalf("server cart = %+v", st.Cart)
	}
	if want := (CartItem{ProductID: 3, Name: "Desk Lamp", Qty: 3, PriceCents: 5900}); st.Cart[0] != want {
		t.Errorf("first line = %+v, want %+v", st.Cart[0], want)
	}

	// The badge of the next page load shows the count too.
	wantContains(t, b.get("/products").Body, `id="cart-badge" href="/cart">Cart (4)</a>`)
	cart := b.get("/cart")
	wantContains(t, cart.Body, "Desk Lamp", "Fountain Pen", `aria-label="Remove Desk Lamp"`, "$225.00")

	r = b.postForm("/cart/remove", url.Values{"id": {"3"}})
	wantStatus(t, r, http.StatusSeeOther)
	if st := site.Session(b.sid()); st.CartCount() != 1 || st.Cart[0].ProductID != 5 {
		t.Errorf("after remove: %+v", st.Cart)
	}
	var got cartReply
	if err := json.Unmarshal([]byte(b.get("/api/cart").Body), &got); err != nil || got.Count != 1 || got.TotalCents != 4800 {
		t.Errorf("GET /api/cart = %+v, %v", got, err)
	}
}

func TestCartAddForm(t *testing.T) {
	site, b := newSite(t)
	r := b.postForm("/cart/add", url.Values{"id": {"7"}, "qty": {"2"}})
	wantStatus(t, r, http.StatusSeeOther)
	if st := site.Session(b.sid()); st.CartCount() != 2 {
		t.Errorf("cart = %+v", st.Cart)
	}
}

func TestSessionsAreSeparate(t *testing.T) {
	site, b1 := newSite(t)
	b2 := newBrowser(t, b1.base)
	b1.post("/api/cart", "application/json", strings.NewReader(`{"id": 1}`))
	b2.get("/")
	if b1.sid() == b2.sid() {
		t.Fatal("two browsers share a session")
	}
	if n := site.Session(b2.sid()).CartCount(); n != 0 {
		t.Errorf("second browser's cart has %d units", n)
	}
	if got := site.Sessions(); len(got) != 2 || got[0] != b1.sid() || got[1] != b2.sid() {
		t.Errorf("Sessions() = %v", got)
	}
	if st := site.Session("nope"); st.ID != "" {
		t.Errorf("Session(unknown) = %+v", st)
	}
}

func TestAPIState(t *testing.T) {
	site, b := newSite(t)
	b.post("/api/cart", "application/json", strings.NewReader(`{"id": 2, "qty": 1}`))
	r := b.get("/api/state")
	wantStatus(t, r, http.StatusOK)
	var st SessionState
	if err := json.Unmarshal([]byte(r.Body), &st); err != nil {
		t.Fatal(err)
	}
	if st.ID != b.sid() || st.CartCount() != 1 || st.SignedIn {
		t.Errorf("state = %+v", st)
	}
	if got := site.Session(b.sid()); got.Created != fixedNow {
		t.Errorf("Created = %v, want the injected clock", got.Created)
	}
}

// TestConcurrentCarts adds from many clients at once; run with -race.
func TestConcurrentCarts(t *testing.T) {
	site, first := newSite(t)
	const clients, adds = 8, 10
	done := make(chan string)
	for range clients {
		go func() {
			b := newBrowser(t, first.base)
			for range adds {
				res, err := b.c.Post(b.base+"/api/cart", "application/json", strings.NewReader(`{"id": 4}`))
				if err != nil {
					t.Error(err)
					break
				}
				res.Body.Close()
			}
			u, _ := url.Parse(b.base)
			sid := ""
			for _, c := range b.c.Jar.Cookies(u) {
				sid = c.Value
			}
			done <- sid
		}()
	}
	for range clients {
		sid := <-done
		if n := site.Session(sid).CartCount(); n != adds {
			t.Errorf("session %s: %d units, want %d", sid, n, adds)
		}
	}
	if n := len(site.Sessions()); n != clients {
		t.Errorf("%d sessions, want %d", n, clients)
	}
}
