package discover

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"strings"

	"golang.org/x/net/html/charset"
)

// Feed is a feed read as rows, to be compared with the rows a page shows.
type Feed struct {
	Kind  string     `json:"kind"` // "rss", "atom" or "json"
	Title string     `json:"title,omitempty"`
	Items []FeedItem `json:"items"`
}

// FeedItem is one entry of a feed.
type FeedItem struct {
	Title   string `json:"title,omitempty"`
	Link    string `json:"link,omitempty"`
	Date    string `json:"date,omitempty"` // as the feed wrote it
	Summary string `json:"summary,omitempty"`
}

// maxFeedItems bounds the entries read from one feed.
const maxFeedItems = 10000

// ParseFeed reads an RSS 2.0 (or 0.9x/1.0), Atom or JSON Feed document.
func ParseFeed(b []byte) (*Feed, error) {
	t := bytes.TrimSpace(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")))
	if len(t) == 0 {
		return nil, errors.New("discover: an empty feed")
	}
	if t[0] == '{' {
		return parseJSONFeed(t)
	}
	return parseXMLFeed(t)
}

func parseJSONFeed(b []byte) (*Feed, error) {
	var f struct {
		Version string `json:"version"`
		Title   string `json:"title"`
		Items   []struct {
			ID            string `json:"id"`
			URL           string `json:"url"`
			Title         string `json:"title"`
			Summary       string `json:"summary"`
			ContentText   string `json:"content_text"`
			DatePublished string `json:"date_published"`
		} `json:"items"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, errors.New("discover: not a JSON Feed: " + err.Error())
	}
	if !strings.Contains(f.Version, "jsonfeed.org") {
		return nil, errors.New("discover: not a JSON Feed (no jsonfeed.org version)")
	}
	out := &Feed{Kind: "json", Title: f.Title, Items: []FeedItem{}}
	for _, it := range f.Items {
		if len(out.Items) >= maxFeedItems {
			break
		}
		sum := it.Summary
		if sum == "" {
			sum = it.ContentText
		}
		out.Items = append(out.Items, FeedItem{Title: it.Title, Link: it.URL, Date: it.DatePublished, Summary: clip(sum)})
	}
	return out, nil
}

// parseXMLFeed reads RSS and Atom by element name, whatever their
// namespaces: the feeds in the wild mix them.
func parseXMLFeed(b []byte) (*Feed, error) {
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict = false
	// Feeds in the wild declare other encodings (ISO-8859-1,
	// windows-1252) and write HTML's entities (&eacute;, &nbsp;): read
	// both rather than refuse the feed or keep "&eacute;".
	d.CharsetReader = charset.NewReaderLabel
	d.Entity = xml.HTMLEntity
	var out *Feed
	var item *FeedItem
	var field string
	var fieldDepth int
	var text strings.Builder
	depth, itemDepth := 0, 0
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			depth++
			name := tok.Name.Local
			if depth == 1 {
				switch name {
				case "rss", "RDF":
					out = &Feed{Kind: "rss"}
				case "feed":
					out = &Feed{Kind: "atom"}
				default:
					return nil, errors.New("discover: not a feed (its root is <" + name + ">)")
				}
				continue
			}
			if out == nil {
				continue
			}
			if item == nil && (name == "item" || name == "entry") {
				if len(out.Items) >= maxFeedItems {
					return out, nil
				}
				item, itemDepth = &FeedItem{}, depth
				continue
			}
			if name == "link" && out.Kind == "atom" && item != nil && depth == itemDepth+1 {
				rel := attr(tok, "rel")
				if (rel == "" || rel == "alternate") && item.Link == "" {
					item.Link = attr(tok, "href")
				}
				continue
			}
			if field != "" && depth > fieldDepth && bodyField(field) {
				continue // XHTML inside an Atom content: its text is the content's
			}
			field, fieldDepth = name, depth
			text.Reset()
		case xml.CharData:
			if field != "" && text.Len() < 64<<10 {
				text.Write(tok)
			}
		case xml.EndElement:
			name := tok.Name.Local
			if item != nil && depth == itemDepth && (name == "item" || name == "entry") {
				out.Items = append(out.Items, *item)
				item = nil
			} else if field == name && depth == fieldDepth && out != nil {
				v := strings.TrimSpace(text.String())
				switch {
				case item == nil && name == "title" && out.Title == "":
					out.Title = v
				case item != nil && name == "title" && item.Title == "":
					item.Title = v
				case item != nil && name == "link" && item.Link == "":
					item.Link = v
				case item != nil && (name == "pubDate" || name == "published" || name == "updated" || name == "date") && item.Date == "":
					item.Date = v
				case item != nil && (name == "description" || name == "summary" || name == "content") && item.Summary == "":
					item.Summary = clip(v)
				}
				field = ""
			}
			depth--
		}
	}
	if out == nil {
		return nil, errors.New("discover: not a feed")
	}
	if out.Items == nil {
		out.Items = []FeedItem{}
	}
	return out, nil
}

// bodyField says whether an element holds an entry's body, whose markup
// (Atom's type="xhtml") is read as its text.
func bodyField(name string) bool {
	return name == "description" || name == "summary" || name == "content"
}

func attr(e xml.StartElement, name string) string {
	for _, a := range e.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// clip bounds a summary.
func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 1000 {
		s = s[:1000]
		for len(s) > 0 && s[len(s)-1]&0xc0 == 0x80 {
			s = s[:len(s)-1]
		}
		if len(s) > 0 && s[len(s)-1] >= 0xc0 {
			s = s[:len(s)-1]
		}
	}
	return s
}

// Rows returns the feed's items as rows (title, link, date, summary), the
// shape package siteapi compares with the rows the browser read.
func (f *Feed) Rows() []map[string]any {
	rows := make([]map[string]any, 0, len(f.Items))
	for _, it := range f.Items {
		rows = append(rows, map[string]any{"title": it.Title, "link": it.Link, "date": it.Date, "summary": it.Summary})
	}
	return rows
}
