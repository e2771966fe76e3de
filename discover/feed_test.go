package discover

import "testing"

// TestParseFeedInTheWild: feeds as sites write them, beyond the clean
// cases: a declared Latin-1 encoding (the reader refused the whole feed),
// HTML entities in a feed that is not strict XML (kept as "&eacute;"), and
// an Atom entry whose content is XHTML (its text was lost in the <div>).
func TestParseFeedInTheWild(t *testing.T) {
	latin1 := []byte("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><rss version=\"2.0\"><channel><title>Caf\xe9</title>" +
		"<item><title>Cr\xe8me br\xfbl\xe9e</title><link>https://s.example/1</link></item></channel></rss>")
	f, err := ParseFeed(latin1)
	if err != nil || f.Title != "Café" || len(f.Items) != 1 || f.Items[0].Title != "Crème brûlée" {
		t.Errorf("Latin-1 feed: %+v, %v", f, err)
	}
	entities := []byte(`<rss version="2.0"><channel><title>News</title><item><title>Caf&eacute; &amp; bar&nbsp;opens</title>` +
		`<description>Prices &euro;5</description><link>https://s.example/2</link></item></channel></rss>`)
	f, err = ParseFeed(entities)
	if err != nil || len(f.Items) != 1 || f.Items[0].Title != "Café & bar\u00a0opens" || f.Items[0].Summary != "Prices €5" {
		t.Errorf("entities: %+v, %v", f, err)
	}
	xhtml := []byte(`<feed xmlns="http://www.w3.org/2005/Atom"><title>Blog</title><entry><title>Hello</title>` +
		`<link href="https://s.example/3"/><updated>2026-11-03T10:00:00Z</updated>` +
		`<content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>First <b>bold</b> words</p></div></content></entry></feed>`)
	f, err = ParseFeed(xhtml)
	if err != nil || len(f.Items) != 1 || f.Items[0].Summary != "First bold words" || f.Items[0].Link != "https://s.example/3" {
		t.Errorf("XHTML content: %+v, %v", f, err)
	}
}
