// Package notice recognises what stands in the way of a page: bot checks
// and vendor blocks, refusals by HTTP status, cookie and app banners,
// dialogs and sign-in pages. It recognises them so that a person can be
// asked or the pilot can answer what is safe; it never solves, hides or
// retries into anything.
//
// [Detect] is a pure function over what the driver already holds: the
// document response's status and headers, the page's title and URL, and its
// outline. Notice messages quote page text with Go quoting and a length cap
// rather than speaking it (shared/DESIGN.md, invariant 3): a page cannot
// write a sentence into a notice, only a quoted string.
//
// Evidence is weighed in this order: response headers that only a vendor
// sets, then the vendor's widgets (iframes by title, id, class and src), then
// the exact titles and phrases of its interstitial pages, which count only on
// a short page so that an article about Cloudflare is not a challenge.
//
// # What counts
//
//   - A bot check is a challenge a person (or a real browser, for the kinds
//     marked calls.DetailMayClear) can pass; a block is a vendor's denial.
//     AWS WAF's x-amzn-waf-action "captcha" (HTTP 405) and "challenge"
//     (HTTP 202) are bot checks; any other action value is a block.
//     DataDome and Kasada headers ride on ordinary responses too, so they
//     count only with an error status (DataDome) or a 429 (Kasada).
//   - reCAPTCHA's invisible and v3 badge (a 256×60 iframe titled
//     "reCAPTCHA", or a src with size=invisible) sits on ordinary pages and
//     is not a check; neither is an iframe without a layout box.
//   - A cookie banner is text about cookies or consent (at most 1200
//     characters) with a button that rejects, keeps to what is necessary, or
//     accepts, near it in the same container. A page that mentions cookies
//     with no such button is not a banner; a "Cookie settings" link alone is
//     not either.
//   - An app banner needs a dismiss control next to its "open in app"
//     words: a "Get the app" link in a footer is not in the way.
//   - A sign-in page has exactly one password field, not labelled new or
//     confirm, and sign-in words in its title, a heading, a button after the
//     field, or the URL path. A password change, reset or sign-up form is
//     not a sign-in page: the submit gate guards it.
//   - A dialog is a visible dialog or alertdialog not already reported as a
//     banner, or an open JavaScript dialog.
package notice
