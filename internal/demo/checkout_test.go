package demo

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// goodCheckout is a form that passes validation.
func goodCheckout() url.Values {
	return url.Values{
		"name":          {"Ann Example"},
		"email":         {"ann@example.com"},
		"password":      {"s3cret-pass"},
		"country":       {"GB"},
		"shipping":      {"express"},
		"terms":         {"yes"},
		"newsletter":    {"yes"},
		"delivery_date": {"2030-06-20"},
		"notes":         {"Leave it with the neighbour."},
	}
}

func TestCheckoutSuccess(t *testing.T) {
	site, b := newSite(t)
	form := b.get("/checkout")
	wantStatus(t, form, http.StatusOK)
	wantContains(t, form.Body, `enctype="multipart/form-data"`, `type="password"`, `<select id="country"`,
		`type="radio" name="shipping" value="express"`, `type="checkbox" name="terms"`, `type="date"`,
		`<textarea id="notes"`, `type="file"`, "Place order", `min="2030-06-15"`)

	b.post("/api/cart", "application/json", strings.NewReader(`{"id": 1, "qty": 2}`))
	ct, body := multipartBody(t, goodCheckout(), file{Field: "invoice", Name: "invoice.pdf", Content: "%PDF-1.4 demo"})
	r := b.post("/checkout", ct, body)
	wantStatus(t, r, http.StatusSeeOther)
	if r.Location != "/orders/WM-1001" {
		t.Fatalf("Location = %q", r.Location)
	}

	confirm := b.get(r.Location)
	wantStatus(t, confirm, http.StatusOK)
	wantContains(t, confirm.Body, `<strong id="order-number">WM-1001</strong>`, "invoice.pdf (13 bytes)", "2 × Trail Mug", "Cart (0)")

	o, ok := site.LastOrder()
	if !ok {
		t.Fatal("LastOrder: none")
	}
	want := Order{
		Number: "WM-1001", Placed: fixedNow, Name: "Ann Example", Email: "ann@example.com",
		Password: "s3cret-pass", Country: "GB", Shipping: "express", Terms: true, Newsletter: true,
		DeliveryDate: "2030-06-20", Notes: "Leave it with the neighbour.",
		Invoice:    Attachment{Name: "invoice.pdf", Size: 13, ContentType: "application/octet-stream"},
		TotalCents: 2900,
	}
	if len(o.Items) != 1 || o.Items[0].Qty != 2 {
		t.Errorf("Items = %+v", o.Items)
	}
	o.Items = nil
	if diff := cmp.Diff(want, o); diff != "" {
		t.Errorf("LastOrder mismatch (-want +got):\n%s", diff)
	}
	st := site.Session(b.sid())
	if len(st.Orders) != 1 || len(st.Cart) != 0 {
		t.Errorf("session after checkout: %d orders, cart %+v", len(st.Orders), st.Cart)
	}

	// The password never goes out in /api/state.
	if s := b.get("/api/state").Body; strings.Contains(s, "s3cret-pass") || !strings.Contains(s, "WM-1001") {
		t.Errorf("/api/state = %s", s)
	}
	// Another browser cannot see the order.
	other := newBrowser(t, b.base)
	wantStatus(t, other.get("/orders/WM-1001"), http.StatusNotFound)

	// A second order gets the next number; a form without a file is fine.
	ct, body = multipartBody(t, goodCheckout())
	if r := b.post("/checkout", ct, body); r.Location != "/orders/WM-1002" {
		t.Errorf("second order: %d %q", r.Status, r.Location)
	}
}

func TestCheckoutValidation(t *testing.T) {
	tests := []struct {
		name   string
		change func(url.Values)
		want   []string
	}{
		{"terms unchecked", func(v url.Values) { v.Del("terms") }, []string{"You must accept the terms and conditions."}},
		{"missing name and email", func(v url.Values) { v.Del("name"); v.Set("email", " ") }, []string{"Enter your full name.", "Enter your email address."}},
		{"bad email", func(v url.Values) { v.Set("email", "ann") }, []string{"Enter an email address like ann@example.com."}},
		{"short password", func(v url.Values) { v.Set("password", "short") }, []string{"Use at least 8 characters"}},
		{"no country", func(v url.Values) { v.Set("country", "") }, []string{"Choose a country."}},
		{"unknown country", func(v url.Values) { v.Set("country", "XX") }, []string{"Choose a country."}},
		{"no shipping", func(v url.Values) { v.Del("shipping") }, []string{"Choose a shipping method."}},
		{"past date", func(v url.Values) { v.Set("delivery_date", "2030-06-14") }, []string{"cannot be in the past"}},
		{"bad date", func(v url.Values) { v.Set("delivery_date", "next week") }, []string{"YYYY-MM-DD"}},
		{"everything missing", func(v url.Values) {
			for k := range v {
				v.Del(k)
			}
		}, []string{"Enter your full name.", "Enter a password", "Choose a shipping method.", "terms and conditions"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			site, b := newSite(t)
			v := goodCheckout()
			tt.change(v)
			ct, body := multipartBody(t, v)
			r := b.post("/checkout", ct, body)
			wantStatus(t, r, http.StatusUnprocessableEntity)
			wantContains(t, r.Body, tt.want...)
			wantContains(t, r.Body, `role="alert"`, "Place order")
			if strings.Contains(r.Body, "s3cret-pass") {
				t.Error("the form echoes the password")
			}
			if v.Get("name") != "" {
				wantContains(t, r.Body, `value="Ann Example"`) // kept for the second try
			}
			if _, ok := site.LastOrder(); ok {
				t.Error("an order was stored")
			}
		})
	}
}

func TestCheckoutURLEncoded(t *testing.T) {
	site, b := newSite(t)
	r := b.postForm("/checkout", goodCheckout())
	wantStatus(t, r, http.StatusSeeOther)
	if o, ok := site.LastOrder(); !ok || o.Invoice != (Attachment{}) {
		t.Errorf("LastOrder = %+v, %v", o, ok)
	}
}
