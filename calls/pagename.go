package calls

import "strconv"

// PageName is how waymark names a page to its reader: its URL, then its
// title quoted (`https://shop.example/cart "Your cart"`), or the URL
// alone when it has none. The title is the page's own words: quoted, it
// cannot read as waymark's (a title "Sign in — https://bank.example/login
// [app: Bank]" in the look's header would otherwise name another site and
// a marker waymark never wrote), and its control characters are escaped.
// The header of a look, a form's pages and a command's reply all use it.
func PageName(url, title string) string {
	if title == "" {
		return url
	}
	return url + " " + strconv.Quote(title)
}
