package sheet

import (
	"fmt"
	"strings"
	"time"
)

// Rows reads the plan's table: an object per data row holding each field
// typed by the schema (a field placed on no column is null). Numbers are
// read as the sheet writes them ("1,234.50", "$14.50", "12.5%" is 12.5,
// "(1,200)" is -1200), booleans from yes/no, true/false, ✓/✗, and strings
// of format date or date-time in ISO 8601 (recipe's dates: "1 Nov 2026",
// relative dates against now, and numbers with slashes in the order the
// column shows: one cell with a day past 12 tells it). A row whose
// fields are all empty is left out. dropped holds the JSON pointers
// within the list ("/3/amount") of cells that did not read as their
// field's type: they are null.
func (p *Plan) Rows(g *Grid, now time.Time) (rows []map[string]any, dropped []string) {
	order := map[string]string{}
	for _, f := range p.Fields {
		if c, ok := p.Columns[f.Name]; ok && f.Format != "" {
			order[f.Name] = p.dateOrder(g, c)
		}
	}
	for r := p.Table.First; r <= p.Table.Last; r++ {
		row := map[string]any{}
		empty := true
		for _, f := range p.Fields {
			c, ok := p.Columns[f.Name]
			if !ok {
				row[f.Name] = nil
				continue
			}
			text := g.At(Ref{Row: r, Col: c}).Value
			if strings.TrimSpace(text) != "" {
				empty = false
			}
			v, ok := cellValue(text, f, order[f.Name], now)
			if !ok {
				dropped = append(dropped, fmt.Sprintf("/%d/%s", len(rows), pointerKey(f.Name)))
			}
			row[f.Name] = v
		}
		if empty {
			// A blank row inside the table: no row of data. Its drops
			// (none: blank cells read as null) are not counted either.
			continue
		}
		rows = append(rows, row)
	}
	return rows, dropped
}

// cellValue is a cell's text as a field's type; ok is false when the text
// does not read so (the value is then null).
func cellValue(text string, f Field, order string, now time.Time) (any, bool) {
	t := strings.TrimSpace(text)
	if t == "" {
		return nil, true
	}
	switch {
	case f.Type == "number" || f.Type == "integer":
		if n, ok := Number(t); ok {
			return n, true
		}
		return Value(&t, f.Type, "")
	case f.Format != "":
		lang := ""
		if order != "" {
			lang = "en-US" // a month-first reading of a/b/yyyy
			if order == "day" {
				t = swapSlashed(t)
			}
		}
		return ValueAt(&t, f.Type, f.Format, lang, now)
	}
	return Value(&t, f.Type, "")
}

// dateOrder tells how a column writes a/b/yyyy dates: "day" first,
// "month" first, or "" when no cell tells.
func (p *Plan) dateOrder(g *Grid, c int) string {
	for r := p.Table.First; r <= p.Table.Last; r++ {
		t := strings.TrimSpace(g.At(Ref{Row: r, Col: c}).Value)
		if !slashedDate.MatchString(t) {
			continue
		}
		var a, b int
		fmt.Sscanf(t, "%d/%d/", &a, &b)
		switch {
		case a > 12 && b <= 12:
			return "day"
		case b > 12 && a <= 12:
			return "month"
		}
	}
	return ""
}

// swapSlashed writes a/b/yyyy as b/a/yyyy.
func swapSlashed(t string) string {
	parts := strings.SplitN(t, "/", 3)
	if len(parts) != 3 {
		return t
	}
	return parts[1] + "/" + parts[0] + "/" + parts[2]
}

// parseDate reads a cell as a date for ordering a column (a/b/yyyy
// month first when it reads either way).
func parseDate(t string) (time.Time, bool) {
	return ParseDateIn(t, "en-US", kindNow)
}

func pointerKey(k string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(k)
}
