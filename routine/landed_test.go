package routine

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/waymark-dev/waymark/calls"
)

func TestLandedAt(t *testing.T) {
	tests := []struct {
		name, goTo, landed string
		notices            []calls.Notice
		want               Landed
	}{
		{"a path", "https://shop.example/cart", "https://shop.example/cart", nil, Landed{Path: "/cart"}},
		{"no path", "https://shop.example", "https://shop.example", nil, Landed{Path: "/"}},
		{"the goto's query, kept", "https://shop.example/search?q=lamp", "https://shop.example/search?q=lamp", nil,
			Landed{Path: "/search", Query: "q=lamp"}},
		{"a parameter the site added", "https://shop.example/search?q=lamp", "https://shop.example/search?page=1&q=lamp&sid=77", nil,
			Landed{Path: "/search", Query: "q=lamp"}},
		{"a parameter the site dropped", "https://shop.example/search?q=lamp&ref=mail", "https://shop.example/search?q=lamp", nil,
			Landed{Path: "/search", Query: "q=lamp"}},
		{"a parameter the site changed", "https://shop.example/search?q=Lamp", "https://shop.example/search?q=lamp", nil,
			Landed{Path: "/search"}},
		{"tracking parameters", "https://shop.example/?utm_source=news&gclid=x&id=4", "https://shop.example/?utm_source=news&gclid=x&id=4", nil,
			Landed{Path: "/", Query: "id=4"}},
		{"an escaped path", "https://shop.example/caf%C3%A9?a=b%20c", "https://shop.example/caf%C3%A9?a=b%20c#top", nil,
			Landed{Path: "/caf%C3%A9", Query: "a=b+c"}},
		{"a redirect elsewhere", "https://shop.example/account?tab=orders", "https://shop.example/login?next=%2Faccount",
			[]calls.Notice{{Kind: "sign-in"}, {Kind: "cookie-banner"}}, Landed{Path: "/login", SignIn: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := LandedAt(tt.goTo, &calls.PageInfo{URL: tt.landed}, tt.notices)
			if diff := cmp.Diff(tt.want, *got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestArrived is where a replayed goto must land: the recorded path, and
// the recorded parameters of its own URL, with this replay's values;
// files of every recorder so far included.
func TestArrived(t *testing.T) {
	tests := []struct {
		name              string
		landed            *Landed
		goTo, now         string
		want              bool
		wantGot, wantWant string
	}{
		{"the same path", &Landed{Path: "/cart"}, "https://shop.example/cart", "https://shop.example/cart/", true, "/cart/", "/cart"},
		{"another path", &Landed{Path: "/cart"}, "https://shop.example/cart", "https://shop.example/maintenance", false, "/maintenance", "/cart"},
		{"no landing: the goto's own path", nil, "https://shop.example/cart?x=1", "https://shop.example/cart?x=2", true, "/cart", "/cart"},
		{"the query kept", &Landed{Path: "/search", Query: "q=lamp"}, "https://shop.example/search?q=lamp", "https://shop.example/search?q=lamp&page=1", true,
			"/search?q=lamp", "/search?q=lamp"},
		{"the query lost", &Landed{Path: "/search", Query: "q=lamp"}, "https://shop.example/search?q=lamp", "https://shop.example/search", false,
			"/search", "/search?q=lamp"},
		{"a variable's value", &Landed{Path: "/search", Query: "q=lamp"}, "https://shop.example/search?q=chair", "https://shop.example/search?q=chair", true,
			"/search?q=chair", "/search?q=chair"},
		{"a variable's value lost", &Landed{Path: "/search", Query: "q=lamp"}, "https://shop.example/search?q=chair", "https://shop.example/search?q=lamp", false,
			"/search?q=lamp", "/search?q=chair"},
		{"a parameter not recorded", &Landed{Path: "/search"}, "https://shop.example/search?q=lamp", "https://shop.example/search", true, "/search", "/search"},
		// The agent loop wrote the escaped path and the whole query in path.
		{"agent loop's file, query", &Landed{Path: "/search?q=lamp"}, "https://shop.example/search?q=lamp", "https://shop.example/search?q=lamp", true,
			"/search?q=lamp", "/search?q=lamp"},
		{"agent loop's file, a parameter the site added", &Landed{Path: "/search?page=1&q=lamp"}, "https://shop.example/search?q=lamp",
			"https://shop.example/search?q=lamp&page=2", true, "/search?q=lamp", "/search?q=lamp"},
		{"agent loop's file, escaped", &Landed{Path: "/caf%C3%A9"}, "https://shop.example/caf%C3%A9", "https://shop.example/caf%C3%A9", true, "/caf%C3%A9", "/caf%C3%A9"},
		// By hand, the path unescaped.
		{"by hand, unescaped", &Landed{Path: "/café"}, "https://shop.example/caf%C3%A9", "https://shop.example/caf%C3%A9", true, "/caf%C3%A9", "/café"},
		{"by hand, a percent sign", &Landed{Path: "/100%"}, "https://shop.example/100%25", "https://shop.example/100%25", true, "/100%25", "/100%"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ok, got, want := Arrived(tt.landed, tt.goTo, tt.now)
			if ok != tt.want || got != tt.wantGot || want != tt.wantWant {
				t.Errorf("Arrived = %v, %q, %q; want %v, %q, %q", ok, got, want, tt.want, tt.wantGot, tt.wantWant)
			}
		})
	}
}

// TestSignInIsTheDriversNotice: SignIn reads the notice kind the driver's
// detector gives (calls.NoticeSignIn).
func TestSignInIsTheDriversNotice(t *testing.T) {
	if !SignIn([]calls.Notice{{Kind: calls.NoticeBotCheck}, {Kind: calls.NoticeSignIn}}) || SignIn([]calls.Notice{{Kind: calls.NoticeBotCheck}}) || SignIn(nil) {
		t.Error("SignIn does not read the notices")
	}
}
