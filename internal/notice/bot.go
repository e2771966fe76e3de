package notice

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/outline"
)

// vendorNames are the names messages use for vendor ids.
var vendorNames = map[string]string{
	"cloudflare": "Cloudflare", "recaptcha": "reCAPTCHA", "hcaptcha": "hCaptcha",
	"datadome": "DataDome", "perimeterx": "HUMAN (PerimeterX)", "arkose": "Arkose Labs",
	"aws-waf": "AWS WAF", "kasada": "Kasada", "imperva": "Imperva", "akamai": "Akamai",
}

// finding is one piece of evidence for a vendor.
type finding struct {
	kind     string // calls.NoticeBotCheck or calls.NoticeBlocked
	vendor   string
	evidence string
	mayClear bool
}

func (f finding) notice() Notice {
	d := map[string]string{calls.DetailEvidence: f.evidence}
	var msg string
	if f.kind == calls.NoticeBlocked {
		msg = fmt.Sprintf("blocked by %s (%s): the site refuses this browser; a person has to decide what to do", vendorNames[f.vendor], f.evidence)
	} else {
		msg = fmt.Sprintf("bot check by %s (%s): a person has to pass it; waymark does not solve it", vendorNames[f.vendor], f.evidence)
		if f.mayClear {
			d[calls.DetailMayClear] = "true"
			msg += "; it may clear by itself after a short wait"
		}
	}
	return Notice{Kind: f.kind, Vendor: f.vendor, Message: msg, Detail: d}
}

// detectBot returns the bot checks and blocks on the page, one per vendor.
// Headers only a vendor sets decide alone; then widgets; then the titles
// and phrases of interstitial pages.
func detectBot(pg *page) []Notice {
	fs := fromHeaders(pg)
	if len(fs) == 0 {
		fs = append(fromWidgets(pg), fromPhrases(pg)...)
	}
	var out []Notice
	seen := map[string]int{}
	for _, f := range fs {
		if i, ok := seen[f.vendor]; ok {
			if f.kind == calls.NoticeBlocked && out[i].Kind != calls.NoticeBlocked {
				out[i] = f.notice() // a denial outranks a challenge by the same vendor
			}
			continue
		}
		seen[f.vendor] = len(out)
		out = append(out, f.notice())
	}
	return out
}

// denial are the phrases of vendors' block pages (as opposed to their
// challenges).
var denial = phrases{"you have been blocked", "you ve been blocked", "access denied", "access to this page has been denied", "request blocked", "request unsuccessful"}

// fromHeaders reads the response headers only bot vendors set.
func fromHeaders(pg *page) []finding {
	h, status := pg.in.Headers, pg.in.Status
	if h == nil {
		return nil
	}
	var fs []finding
	if v := strings.ToLower(h.Get("Cf-Mitigated")); v == "challenge" {
		fs = append(fs, finding{calls.NoticeBotCheck, "cloudflare", "header cf-mitigated: challenge", true})
	}
	// x-amzn-waf-action is set on the CAPTCHA (HTTP 405) and silent
	// Challenge (HTTP 202) responses; both can be passed by a person or
	// a real browser. Any other value is taken as a denial.
	switch v := strings.ToLower(h.Get("X-Amzn-Waf-Action")); v {
	case "":
	case "captcha":
		fs = append(fs, finding{calls.NoticeBotCheck, "aws-waf", fmt.Sprintf("header x-amzn-waf-action: captcha, HTTP %d", status), false})
	case "challenge":
		fs = append(fs, finding{calls.NoticeBotCheck, "aws-waf", fmt.Sprintf("header x-amzn-waf-action: challenge, HTTP %d", status), true})
	default:
		fs = append(fs, finding{calls.NoticeBlocked, "aws-waf", "header x-amzn-waf-action: " + quote(v, 20), false})
	}
	// DataDome marks every response of a site it protects with
	// x-datadome; only an error status means this one was stopped.
	if (h.Get("X-Datadome") != "" || h.Get("X-Dd-B") != "") && status >= 400 {
		f := finding{calls.NoticeBotCheck, "datadome", fmt.Sprintf("header x-datadome, HTTP %d", status), false}
		if pg.corpus != "" && denial.in(pg.corpus) {
			f.kind = calls.NoticeBlocked
		}
		fs = append(fs, f)
	}
	// Kasada's x-kpsdk-* headers ride on normal responses too; its
	// challenge is a 429 whose script reloads the page.
	if status == http.StatusTooManyRequests {
		for k := range h {
			if strings.HasPrefix(strings.ToLower(k), "x-kpsdk-") {
				fs = append(fs, finding{calls.NoticeBotCheck, "kasada", "header " + strings.ToLower(k) + ", HTTP 429", true})
				break
			}
		}
	}
	return fs
}

// fromWidgets finds the vendors' challenge widgets: iframes by title, id,
// class and src (src only if the driver keeps it), and the few markers that
// survive in the outline's attributes.
func fromWidgets(pg *page) []finding {
	var fs []finding
	for _, it := range pg.items {
		n := it.n
		if !pg.visible(n) {
			continue
		}
		if n.Role == "iframe" {
			if f, ok := iframeWidget(n); ok {
				fs = append(fs, f)
			}
			continue
		}
		id, class := attr(n, "id"), attr(n, "class")
		switch {
		case strings.Contains(id, "cf-chl") || strings.Contains(class, "cf-chl") || id == "challenge-form" || strings.Contains(class, "cf-turnstile"):
			fs = append(fs, finding{calls.NoticeBotCheck, "cloudflare", "markup " + quote(firstNonEmpty(id, class), 40), true})
		case id == "px-captcha" || strings.Contains(class, "px-captcha"):
			fs = append(fs, finding{calls.NoticeBotCheck, "perimeterx", "markup \"px-captcha\"", false})
		case n.Role != "button" && (strings.Contains(class, "g-recaptcha") || strings.Contains(class, "h-captcha")):
			// A button with the class binds an invisible check to a submit;
			// only a box of its own is a widget to pass.
			v := "recaptcha"
			if strings.Contains(class, "h-captcha") {
				v = "hcaptcha"
			}
			fs = append(fs, finding{calls.NoticeBotCheck, v, "markup " + quote(class, 40), false})
		}
	}
	return fs
}

// iframeWidget recognises a vendor's iframe.
func iframeWidget(n *outline.Node) (finding, bool) {
	title := strings.ToLower(firstNonEmpty(n.Name, n.Attrs["title"]))
	id, class, src := attr(n, "id"), attr(n, "class"), attr(n, "src")
	ev := "iframe " + quote(firstNonEmpty(n.Name, n.Attrs["title"], id, src), 60)
	has := func(s string) bool {
		return strings.Contains(title, s) || strings.Contains(id, s) || strings.Contains(class, s) || strings.Contains(src, s)
	}
	switch {
	case has("cloudflare security challenge") || has("cf-chl-widget") || has("challenges.cloudflare.com"):
		return finding{calls.NoticeBotCheck, "cloudflare", ev, true}, true
	case strings.HasPrefix(title, "recaptcha challenge") || strings.Contains(src, "/recaptcha/") && strings.Contains(src, "/bframe"):
		return finding{calls.NoticeBotCheck, "recaptcha", ev, false}, true
	case title == "recaptcha" || strings.Contains(src, "/recaptcha/"):
		// The invisible and v3 reCAPTCHA put a 256×60 badge on ordinary
		// pages; that badge is no check to pass.
		if strings.Contains(src, "size=invisible") || n.Box.W <= 260 && n.Box.H <= 64 && n.Box.W >= 250 {
			return finding{}, false
		}
		return finding{calls.NoticeBotCheck, "recaptcha", ev, false}, true
	case has("hcaptcha"):
		return finding{calls.NoticeBotCheck, "hcaptcha", ev, false}, true
	case has("captcha-delivery.com") || has("datadome"):
		return finding{calls.NoticeBotCheck, "datadome", ev, false}, true
	case has("arkoselabs") || has("funcaptcha") || has("arkose") || title == "verification challenge":
		return finding{calls.NoticeBotCheck, "arkose", ev, false}, true
	}
	return finding{}, false
}

// fromPhrases recognises vendors' interstitial pages by exact titles and
// phrases, on short pages only.
func fromPhrases(pg *page) []finding {
	if !pg.short() {
		return nil
	}
	t := norm(pg.title)
	c := pg.corpus
	qt := "title " + quote(pg.title, 60)
	var fs []finding
	switch {
	case t == " just a moment " || t == " un instant " || t == " einen moment bitte ":
		fs = append(fs, finding{calls.NoticeBotCheck, "cloudflare", qt, true})
	case t == " attention required cloudflare ":
		k := calls.NoticeBotCheck
		if denial.in(c) {
			k = calls.NoticeBlocked
		}
		fs = append(fs, finding{k, "cloudflare", qt, false})
	case strings.Contains(t, " used cloudflare to restrict access "):
		fs = append(fs, finding{calls.NoticeBlocked, "cloudflare", qt, false})
	case strings.Contains(c, " cloudflare ray id ") && denial.in(c):
		fs = append(fs, finding{calls.NoticeBlocked, "cloudflare", `text "Cloudflare Ray ID"`, false})
	case strings.Contains(c, " verify you are human ") && strings.Contains(c, " security of your connection "):
		fs = append(fs, finding{calls.NoticeBotCheck, "cloudflare", `text "Verify you are human"`, true})
	}
	switch {
	case strings.Contains(c, " press hold "):
		fs = append(fs, finding{calls.NoticeBotCheck, "perimeterx", `text "Press & Hold"`, false})
	case strings.Contains(c, " incapsula incident id "):
		fs = append(fs, finding{calls.NoticeBlocked, "imperva", `text "Incapsula incident ID"`, false})
	case strings.Contains(c, " generated by cloudfront ") && strings.Contains(c, " request blocked "):
		fs = append(fs, finding{calls.NoticeBlocked, "aws-waf", `text "Request blocked" (CloudFront)`, false})
	case t == " access denied " && strings.Contains(c, " you don t have permission to access ") && strings.Contains(c, " reference "):
		fs = append(fs, finding{calls.NoticeBlocked, "akamai", qt, false})
	}
	return fs
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
