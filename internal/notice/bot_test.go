package notice

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/outline"
)

func TestBotChecks(t *testing.T) {
	page := func(kids ...*outline.Node) *outline.Node { return doc("Shop", kids...) }
	tests := []struct {
		name     string
		in       Input
		kind     string // "" for none
		vendor   string
		mayClear bool
	}{
		{
			name: "cloudflare header",
			in:   Input{Status: 403, Headers: headers("Cf-Mitigated", "challenge", "Server", "cloudflare"), Outline: doc("Just a moment...")},
			kind: calls.NoticeBotCheck, vendor: "cloudflare", mayClear: true,
		},
		{
			name: "cloudflare title",
			in:   Input{Status: 503, Outline: doc("Just a moment...", txt("Checking your browser before accessing the site."))},
			kind: calls.NoticeBotCheck, vendor: "cloudflare", mayClear: true,
		},
		{
			name: "cloudflare verify you are human",
			in:   Input{Status: 403, Outline: doc("shop.example", heading("shop.example"), txt("Verify you are human by completing the action below."), txt("shop.example needs to review the security of your connection before proceeding."))},
			kind: calls.NoticeBotCheck, vendor: "cloudflare", mayClear: true,
		},
		{
			name: "cloudflare block page",
			in: Input{Status: 403, Headers: headers("Server", "cloudflare", "Cf-Ray", "8a1b"), Outline: doc("Attention Required! | Cloudflare",
				heading("Sorry, you have been blocked"), txt("You are unable to access shop.example"), txt("Cloudflare Ray ID: 8a1b"))},
			kind: calls.NoticeBlocked, vendor: "cloudflare",
		},
		{
			name: "cloudflare 1020",
			in:   Input{Status: 403, Outline: doc("Access denied | shop.example used Cloudflare to restrict access", heading("Error 1020"))},
			kind: calls.NoticeBlocked, vendor: "cloudflare",
		},
		{
			name: "turnstile widget",
			in:   Input{Status: 200, Outline: page(textbox("Email", "e1"), iframe("Widget containing a Cloudflare security challenge", "e2", map[string]string{"id": "cf-chl-widget-abc"}))},
			kind: calls.NoticeBotCheck, vendor: "cloudflare", mayClear: true,
		},
		{
			name: "cf-chl markup",
			in:   Input{Status: 200, Outline: page(&outline.Node{Role: "form", Name: "challenge", Attrs: map[string]string{"id": "challenge-form"}})},
			kind: calls.NoticeBotCheck, vendor: "cloudflare", mayClear: true,
		},
		{
			name: "recaptcha checkbox",
			in:   Input{Status: 200, Outline: page(boxed(iframe("reCAPTCHA", "e3", nil), 304, 78))},
			kind: calls.NoticeBotCheck, vendor: "recaptcha",
		},
		{
			name: "recaptcha invisible badge",
			in:   Input{Status: 200, Outline: page(boxed(btn("Log in", "e1"), 80, 30), boxed(iframe("reCAPTCHA", "e3", nil), 256, 60))},
		},
		{
			name: "recaptcha invisible by src",
			in:   Input{Status: 200, Outline: page(boxed(iframe("reCAPTCHA", "e3", map[string]string{"src": "https://www.google.com/recaptcha/api2/anchor?k=x&size=invisible"}), 304, 78))},
		},
		{
			name: "recaptcha hidden",
			in:   Input{Status: 200, Outline: page(boxed(btn("Log in", "e1"), 80, 30), iframe("reCAPTCHA", "e3", nil))},
		},
		{
			name: "recaptcha challenge",
			in:   Input{Status: 200, Outline: page(iframe("recaptcha challenge expires in two minutes", "e4", nil))},
			kind: calls.NoticeBotCheck, vendor: "recaptcha",
		},
		{
			name: "g-recaptcha box",
			in:   Input{Status: 200, Outline: page(&outline.Node{Role: "group", Attrs: map[string]string{"class": "g-recaptcha"}})},
			kind: calls.NoticeBotCheck, vendor: "recaptcha",
		},
		{
			name: "g-recaptcha button is no check",
			in:   Input{Status: 200, Outline: page(&outline.Node{Role: "button", Name: "Submit", Ref: "e1", Attrs: map[string]string{"class": "g-recaptcha btn"}})},
		},
		{
			name: "hcaptcha checkbox",
			in:   Input{Status: 200, Outline: page(iframe("Widget containing checkbox for hCaptcha security challenge", "e5", nil))},
			kind: calls.NoticeBotCheck, vendor: "hcaptcha",
		},
		{
			name: "datadome captcha",
			in:   Input{Status: 403, Headers: headers("X-Datadome", "protected", "X-Dd-B", "2"), Outline: doc("shop.example", iframe("DataDome CAPTCHA", "e1", map[string]string{"src": "https://geo.captcha-delivery.com/captcha/?initialCid=x"}))},
			kind: calls.NoticeBotCheck, vendor: "datadome",
		},
		{
			name: "datadome block",
			in:   Input{Status: 403, Headers: headers("X-Datadome", "protected"), Outline: doc("shop.example", iframe("DataDome CAPTCHA", "e1", nil, heading("You have been blocked.")))},
			kind: calls.NoticeBlocked, vendor: "datadome",
		},
		{
			name: "datadome passed",
			in:   Input{Status: 200, Headers: headers("X-Datadome", "protected"), Outline: page(txt("Welcome"))},
		},
		{
			name: "datadome iframe without headers",
			in:   Input{Status: 200, Outline: page(iframe("", "e1", map[string]string{"src": "https://geo.captcha-delivery.com/interstitial/"}))},
			kind: calls.NoticeBotCheck, vendor: "datadome",
		},
		{
			name: "perimeterx press and hold",
			in:   Input{Status: 403, Outline: doc("Access to this page has been denied", heading("Before we continue..."), txt("Press & Hold to confirm you are a human (and not a bot)."))},
			kind: calls.NoticeBotCheck, vendor: "perimeterx",
		},
		{
			name: "perimeterx markup",
			in:   Input{Status: 403, Outline: doc("Access denied", &outline.Node{Role: "region", Name: "challenge", Attrs: map[string]string{"id": "px-captcha"}})},
			kind: calls.NoticeBotCheck, vendor: "perimeterx",
		},
		{
			name: "arkose",
			in:   Input{Status: 200, Outline: page(iframe("Verification challenge", "e9", map[string]string{"src": "https://client-api.arkoselabs.com/fc/gc/"}))},
			kind: calls.NoticeBotCheck, vendor: "arkose",
		},
		{
			name: "funcaptcha by id",
			in:   Input{Status: 200, Outline: page(iframe("", "e9", map[string]string{"id": "funcaptcha-frame"}))},
			kind: calls.NoticeBotCheck, vendor: "arkose",
		},
		{
			name: "aws waf captcha",
			in:   Input{Status: 405, Headers: headers("X-Amzn-Waf-Action", "captcha"), Outline: doc("Human Verification")},
			kind: calls.NoticeBotCheck, vendor: "aws-waf",
		},
		{
			name: "aws waf challenge",
			in:   Input{Status: 202, Headers: headers("X-Amzn-Waf-Action", "challenge"), Outline: doc("")},
			kind: calls.NoticeBotCheck, vendor: "aws-waf", mayClear: true,
		},
		{
			name: "aws waf other action",
			in:   Input{Status: 403, Headers: headers("X-Amzn-Waf-Action", "block")},
			kind: calls.NoticeBlocked, vendor: "aws-waf",
		},
		{
			name: "cloudfront request blocked",
			in:   Input{Status: 403, Outline: doc("ERROR: The request could not be satisfied", heading("403 ERROR"), txt("Request blocked. We can't connect to the server for this app or website at this time."), txt("Generated by cloudfront (CloudFront)"))},
			kind: calls.NoticeBlocked, vendor: "aws-waf",
		},
		{
			name: "kasada",
			in:   Input{Status: 429, Headers: headers("X-Kpsdk-Ct", "abc", "Retry-After", "5"), Outline: doc("")},
			kind: calls.NoticeBotCheck, vendor: "kasada", mayClear: true,
		},
		{
			name: "kasada headers on a normal page",
			in:   Input{Status: 200, Headers: headers("X-Kpsdk-Ct", "abc"), Outline: page(txt("Welcome"))},
		},
		{
			name: "imperva",
			in:   Input{Status: 200, Outline: doc("", txt("Request unsuccessful. Incapsula incident ID: 123-456"))},
			kind: calls.NoticeBlocked, vendor: "imperva",
		},
		{
			name: "an article about cloudflare is no check",
			in:   Input{Status: 200, Outline: doc("Just a moment...", append([]*outline.Node{txt("Cloudflare shows 'Verify you are human' and 'needs to review the security of your connection'; press & hold")}, article(20)...)...)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Detect(tt.in)
			checkMessage(t, got)
			var bots []Notice
			for _, n := range got {
				if n.Kind == calls.NoticeBotCheck || n.Kind == calls.NoticeBlocked {
					bots = append(bots, n)
				}
			}
			if tt.kind == "" {
				if len(bots) != 0 {
					t.Fatalf("got %+v, want none", bots)
				}
				return
			}
			if len(bots) != 1 {
				t.Fatalf("got %+v, want one %s by %s", bots, tt.kind, tt.vendor)
			}
			n := bots[0]
			if n.Kind != tt.kind || n.Vendor != tt.vendor {
				t.Errorf("got %s by %s, want %s by %s (%s)", n.Kind, n.Vendor, tt.kind, tt.vendor, n.Message)
			}
			if got := n.Detail[calls.DetailMayClear] == "true"; got != tt.mayClear {
				t.Errorf("may_clear = %v, want %v", got, tt.mayClear)
			}
			if n.Detail[calls.DetailEvidence] == "" {
				t.Error("no evidence")
			}
			if len(only(got, calls.NoticeRefused)) != 0 {
				t.Errorf("a bot check is also reported as a refusal: %v", kinds(got))
			}
		})
	}
}

func TestBotMessage(t *testing.T) {
	got := Detect(Input{Status: 403, Headers: headers("Cf-Mitigated", "challenge")})
	want := []Notice{{
		Kind:    calls.NoticeBotCheck,
		Vendor:  "cloudflare",
		Message: "bot check by Cloudflare (header cf-mitigated: challenge): a person has to pass it; waymark does not solve it; it may clear by itself after a short wait",
		Detail:  map[string]string{calls.DetailEvidence: "header cf-mitigated: challenge", calls.DetailMayClear: "true"},
	}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Detect (-want +got):\n%s", d)
	}
}

// TestBotTitleQuoted checks that a title an attacker writes is quoted, not
// spoken, in the evidence.
func TestBotTitleQuoted(t *testing.T) {
	title := "Attention Required! | Cloudflare"
	got := Detect(Input{Status: 403, Outline: doc(title, txt("Please complete the security check to access"))})
	if len(got) != 1 || !strings.Contains(got[0].Message, `title "Attention Required! | Cloudflare"`) {
		t.Fatalf("got %+v", got)
	}
}
