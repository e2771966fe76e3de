package discover

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
)

// page is what discovery reads from an HTML document's markup: no script
// of it runs here.
type page struct {
	Title       string
	Description string
	Links       []string     // <a href>, in order, at most maxLinks
	LinkRels    []linkRel    // <link rel href type>
	Meta        []metaTag    // <meta name|property content>
	ScriptSrcs  []string     // <script src>
	Scripts     []scriptText // inline scripts, each bounded
	BodyClass   string
}

type linkRel struct{ Rel, Href, Type, Title string }
type metaTag struct{ Name, Content string }
type scriptText struct{ ID, Type, Text string }

const (
	maxLinks       = 2000
	maxScripts     = 200
	maxScriptBytes = 2 << 20 // a __NEXT_DATA__ can be large; more is cut
)

// parseHTML reads the parts of b discovery uses.
func parseHTML(b []byte) *page {
	p := &page{}
	z := html.NewTokenizer(bytes.NewReader(b))
	z.SetMaxBuf(8 << 20)
	var inTitle bool
	var script *scriptText
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return p
		case html.TextToken:
			switch {
			case inTitle && len(p.Title) < 500:
				p.Title += string(z.Text())
			case script != nil && len(script.Text) < maxScriptBytes:
				script.Text += string(z.Text())
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "title":
				inTitle = false
				p.Title = strings.Join(strings.Fields(p.Title), " ")
			case "script":
				if script != nil && len(p.Scripts) < maxScripts {
					p.Scripts = append(p.Scripts, *script)
				}
				script = nil
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			attrs := map[string]string{}
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				if _, dup := attrs[string(k)]; !dup {
					attrs[string(k)] = string(v)
				}
			}
			switch string(name) {
			case "title":
				inTitle = p.Title == "" && tt == html.StartTagToken
			case "a", "area":
				if h, ok := attrs["href"]; ok && len(p.Links) < maxLinks {
					p.Links = append(p.Links, h)
				}
			case "link":
				if len(p.LinkRels) < maxLinks {
					p.LinkRels = append(p.LinkRels, linkRel{Rel: strings.ToLower(attrs["rel"]), Href: attrs["href"], Type: strings.ToLower(attrs["type"]), Title: attrs["title"]})
				}
			case "meta":
				n := attrs["name"]
				if n == "" {
					n = attrs["property"]
				}
				if n != "" && len(p.Meta) < maxLinks {
					p.Meta = append(p.Meta, metaTag{Name: strings.ToLower(n), Content: attrs["content"]})
				}
				if strings.EqualFold(n, "description") && p.Description == "" {
					p.Description = strings.TrimSpace(attrs["content"])
				}
			case "body":
				p.BodyClass = attrs["class"]
			case "script":
				if src := attrs["src"]; src != "" {
					if len(p.ScriptSrcs) < maxScripts {
						p.ScriptSrcs = append(p.ScriptSrcs, src)
					}
				} else if tt == html.StartTagToken {
					script = &scriptText{ID: attrs["id"], Type: attrs["type"]}
				}
			}
		}
	}
}

// meta returns the content of the first meta tag named name.
func (p *page) meta(name string) (string, bool) {
	for _, m := range p.Meta {
		if m.Name == name {
			return m.Content, true
		}
	}
	return "", false
}
