// Package sheetclip reads what a spreadsheet puts on the clipboard when
// its cells are copied (tab separated text, and often an HTML table that
// carries the formatting) into the cells of package sheet. It is apart
// from package sheet, which holds only the standard library's vocabulary
// (package calls imports it), because the HTML needs a parser.
package sheetclip

import (
	"html"
	"strconv"
	"strings"

	nethtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/waymark-dev/waymark/sheet"
)

// What a spreadsheet puts on the clipboard when its cells are copied: tab
// separated text, a cell that holds a tab, a line break or a quote put in
// quotes with its quotes doubled (as Excel, Google Sheets and Jspreadsheet
// write it), and often an HTML table that carries the formatting.

// ParseTSV reads the clipboard's text as rows of cells. markup says the
// app wrote each cell's markup rather than its text ("a&lt;b"): entities
// are then decoded.
func ParseTSV(text string, markup bool) [][]string {
	text = strings.TrimSuffix(strings.TrimSuffix(text, "\n"), "\r")
	if text == "" {
		return nil
	}
	var rows [][]string
	var row []string
	var cell strings.Builder
	end := func() {
		v := cell.String()
		if markup {
			v = html.UnescapeString(v)
		}
		row = append(row, v)
		cell.Reset()
	}
	for i := 0; i < len(text); {
		// A cell that starts with a quote is quoted when its closing
		// quote ends it (at a tab, a line's end or the text's end);
		// otherwise the quote is its own text.
		if cell.Len() == 0 && text[i] == '"' {
			if v, n, ok := quoted(text[i:]); ok {
				cell.WriteString(v)
				i += n
				continue
			}
		}
		switch c := text[i]; {
		case c == '\t':
			end()
			i++
		case c == '\n' || (c == '\r' && i+1 < len(text) && text[i+1] == '\n'):
			end()
			rows = append(rows, row)
			row = nil
			if c == '\r' {
				i++
			}
			i++
		default:
			cell.WriteByte(c)
			i++
		}
	}
	end()
	return append(rows, row)
}

// quoted reads a quoted cell at the start of s: its value and the bytes
// it took, or false when the quote does not close where a cell ends.
func quoted(s string) (string, int, bool) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		if s[i] != '"' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == '"' {
			b.WriteByte('"')
			i++
			continue
		}
		rest := s[i+1:]
		if rest == "" || rest[0] == '\t' || rest[0] == '\n' || strings.HasPrefix(rest, "\r\n") {
			return b.String(), i + 1, true
		}
		return "", 0, false
	}
	return "", 0, false
}

// htmlCell is a cell of the clipboard's HTML table.
type htmlCell struct {
	text string
	bold bool
	fill string
}

// ParseHTMLTable reads the first table of the clipboard's HTML: each
// cell's text, whether it is bold (<b>, <strong>, <th>, or a font-weight
// of bold or 600 and more), its fill (background-color, or bgcolor) and
// whether it spans others. A spanning cell takes its place and leaves the
// places it covers empty, so positions match the text's.
func ParseHTMLTable(src string) [][]sheet.Cell {
	doc, err := nethtml.Parse(strings.NewReader(src))
	if err != nil {
		return nil
	}
	table := find(doc, atom.Table)
	if table == nil {
		return nil
	}
	var grid [][]sheet.Cell
	covered := map[[2]int]bool{}
	r := 0
	var walkRows func(n *nethtml.Node)
	walkRows = func(n *nethtml.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != nethtml.ElementNode {
				continue
			}
			switch c.DataAtom {
			case atom.Thead, atom.Tbody, atom.Tfoot:
				walkRows(c)
			case atom.Tr:
				for len(grid) <= r {
					grid = append(grid, nil)
				}
				col := 0
				for td := c.FirstChild; td != nil; td = td.NextSibling {
					if td.Type != nethtml.ElementNode || (td.DataAtom != atom.Td && td.DataAtom != atom.Th) {
						continue
					}
					for covered[[2]int{r, col}] {
						col++
					}
					hc := readCell(td)
					cs, rs := span(td, "colspan"), span(td, "rowspan")
					for len(grid[r]) <= col {
						grid[r] = append(grid[r], sheet.Cell{})
					}
					grid[r][col] = sheet.Cell{Value: hc.text, Bold: hc.bold, Fill: hc.fill, Merged: cs > 1 || rs > 1}
					for dr := 0; dr < rs; dr++ {
						for dc := 0; dc < cs; dc++ {
							if dr > 0 || dc > 0 {
								covered[[2]int{r + dr, col + dc}] = true
							}
						}
					}
					col += cs
				}
				r++
			}
		}
	}
	walkRows(table)
	return grid
}

// find is the first element of kind a under n.
func find(n *nethtml.Node, a atom.Atom) *nethtml.Node {
	if n.Type == nethtml.ElementNode && n.DataAtom == a {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := find(c, a); f != nil {
			return f
		}
	}
	return nil
}

// span is a cell's colspan or rowspan, 1 when absent, at most 1000.
func span(n *nethtml.Node, name string) int {
	v, err := strconv.Atoi(strings.TrimSpace(attr(n, name)))
	if err != nil || v < 1 {
		return 1
	}
	return min(v, 1000)
}

func attr(n *nethtml.Node, name string) string {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}

// readCell reads one <td>: text (a <br> is a line break), bold and fill.
func readCell(td *nethtml.Node) htmlCell {
	st := styles(attr(td, "style"))
	hc := htmlCell{bold: td.DataAtom == atom.Th || boldWeight(st["font-weight"]), fill: st["background-color"]}
	if hc.fill == "" {
		hc.fill = st["background"]
	}
	if hc.fill == "" {
		hc.fill = attr(td, "bgcolor")
	}
	if f := strings.ToLower(hc.fill); f == "transparent" || f == "#ffffff" || f == "#fff" || f == "white" || f == "rgb(255, 255, 255)" || f == "rgba(0, 0, 0, 0)" {
		hc.fill = ""
	}
	var b strings.Builder
	allBold := true
	sawText := false
	var walk func(n *nethtml.Node, bold bool)
	walk = func(n *nethtml.Node, bold bool) {
		switch n.Type {
		case nethtml.TextNode:
			if strings.TrimSpace(n.Data) != "" {
				sawText = true
				allBold = allBold && bold
			}
			b.WriteString(n.Data)
			return
		case nethtml.ElementNode:
			if n.DataAtom == atom.Br {
				b.WriteByte('\n')
				return
			}
			if n.DataAtom == atom.B || n.DataAtom == atom.Strong || boldWeight(styles(attr(n, "style"))["font-weight"]) {
				bold = true
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, bold)
		}
	}
	for c := td.FirstChild; c != nil; c = c.NextSibling {
		walk(c, false)
	}
	hc.text = b.String()
	if !hc.bold && sawText && allBold {
		hc.bold = true
	}
	return hc
}

// styles reads an inline style into lower-case properties.
func styles(s string) map[string]string {
	out := map[string]string{}
	for _, decl := range strings.Split(s, ";") {
		k, v, ok := strings.Cut(decl, ":")
		if ok {
			out[strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(v)
		}
	}
	return out
}

// boldWeight reports whether a font-weight is bold.
func boldWeight(w string) bool {
	w = strings.ToLower(strings.TrimSpace(w))
	if w == "bold" || w == "bolder" {
		return true
	}
	n, err := strconv.Atoi(w)
	return err == nil && n >= 600
}

// FromClipboard builds the cells of a copy: values from the text (what
// the app says the cells show), formatting from the HTML table by
// position; the HTML's values when there is no text. markup is as for
// [ParseTSV]. formatted says the HTML had a table.
func FromClipboard(text, htmlSrc string, markup bool) (rows [][]sheet.Cell, formatted bool) {
	vals := ParseTSV(text, markup)
	var table [][]sheet.Cell
	if htmlSrc != "" {
		table = ParseHTMLTable(htmlSrc)
	}
	if vals == nil {
		return table, table != nil
	}
	rows = make([][]sheet.Cell, len(vals))
	for i, vr := range vals {
		rows[i] = make([]sheet.Cell, len(vr))
		for j, v := range vr {
			c := sheet.Cell{Value: v}
			if i < len(table) && j < len(table[i]) {
				c.Bold, c.Fill, c.Merged = table[i][j].Bold, table[i][j].Fill, table[i][j].Merged
			}
			rows[i][j] = c
		}
	}
	return rows, table != nil
}
