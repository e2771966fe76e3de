package discover

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"
)

// sitemapDoc is what one sitemap file lists: pages (a urlset, or a text
// sitemap of one URL a line) or child sitemaps (a sitemapindex).
type sitemapDoc struct {
	Index bool
	Locs  []sitemapLoc
	More  bool // the file listed more than the limit allowed
}

type sitemapLoc struct {
	Loc     string
	LastMod string
	Title   string // news:title, video:title and the like, when given
}

// parseSitemap reads at most limit locations from b, a sitemap in the
// sitemaps.org XML form or the text form. encoding/xml expands no
// entity the file declares, so an entity bomb is an error, not a blow-up.
func parseSitemap(b []byte, limit int) (*sitemapDoc, error) {
	t := bytes.TrimSpace(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")))
	if len(t) == 0 {
		return nil, errors.New("an empty sitemap")
	}
	if t[0] != '<' {
		return parseTextSitemap(t, limit), nil
	}
	d := xml.NewDecoder(bytes.NewReader(t))
	out := &sitemapDoc{}
	var cur *sitemapLoc
	var field string
	var text strings.Builder
	depth := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			if len(out.Locs) > 0 {
				return out, nil // keep what a truncated file gave
			}
			return nil, err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			depth++
			if depth > 8 {
				return nil, errors.New("a sitemap nested deeper than the format allows")
			}
			switch name := tok.Name.Local; {
			case depth == 1:
				out.Index = name == "sitemapindex"
				if name != "sitemapindex" && name != "urlset" {
					return nil, errors.New("not a sitemap (its root is <" + name + ">)")
				}
			case depth == 2 && (name == "url" || name == "sitemap"):
				if len(out.Locs) >= limit {
					out.More = true
					return out, nil
				}
				cur = &sitemapLoc{}
			case cur != nil && (name == "loc" || name == "lastmod" || name == "title"):
				field = name
				text.Reset()
			}
		case xml.CharData:
			if field != "" && text.Len() < 4096 {
				text.Write(tok)
			}
		case xml.EndElement:
			depth--
			if cur != nil && field != "" && tok.Name.Local == field {
				v := strings.TrimSpace(text.String())
				switch field {
				case "loc":
					cur.Loc = v
				case "lastmod":
					cur.LastMod = v
				case "title":
					if cur.Title == "" {
						cur.Title = v
					}
				}
				field = ""
			}
			if depth == 1 && cur != nil {
				if cur.Loc != "" {
					out.Locs = append(out.Locs, *cur)
				}
				cur = nil
			}
		}
	}
	return out, nil
}

// parseTextSitemap reads one URL a line.
func parseTextSitemap(b []byte, limit int) *sitemapDoc {
	out := &sitemapDoc{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "http://") && !strings.HasPrefix(line, "https://") {
			continue
		}
		if len(out.Locs) >= limit {
			out.More = true
			break
		}
		out.Locs = append(out.Locs, sitemapLoc{Loc: line})
	}
	return out
}
