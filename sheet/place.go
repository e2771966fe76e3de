package sheet

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// Field is one field of a list read from a sheet: its name, and the
// schema's type (string, number, integer or boolean) and format (date or
// date-time, for a string).
type Field struct {
	Name   string `json:"name"`
	Type   string `json:"type"`
	Format string `json:"format,omitempty"`
}

// Plan is where a list's fields are in a sheet: the table chosen and the
// column of each field its header places. Unplaced fields are for a model
// to place over the table's [Table.View] ([Plan.Assign]), or stay null.
type Plan struct {
	Table  Table
	Fields []Field
	// Columns holds each placed field's sheet column.
	Columns  map[string]int
	Unplaced []string
	// Named says the instruction named the table by its title.
	Named bool
}

// PlanFor chooses the table a list is read from and places each field on
// a column by its header: the table whose title the instruction names,
// else the one whose headers place most fields (then the one with most
// rows). A field is placed by a header that says its name (case, spaces,
// underscores, camelCase and plurals aside), else by a synonym ("client"
// and "Customer", "qty" and "Quantity"), else by a header holding its
// words ("amount" and "Amount (USD)"); two headers that fit a field
// equally well place it nowhere rather than guess, and a column holds
// one field. An error when the grid has no table.
func PlanFor(tables []Table, instruction string, fields []Field) (*Plan, error) {
	if len(tables) == 0 {
		return nil, fmt.Errorf("the sheet has no table: no block of at least two rows")
	}
	said := map[string]bool{}
	for _, w := range words(instruction) {
		said[w] = true
	}
	var best *Plan
	bestNamed := 0
	for _, t := range tables {
		p := place(t, fields)
		named := 0
		for _, w := range words(t.Title) {
			if said[w] && !stopWords[w] {
				named++
			}
		}
		p.Named = named > 0
		if best == nil || cmp.Or(cmp.Compare(named, bestNamed), cmp.Compare(len(p.Columns), len(best.Columns)), cmp.Compare(t.Rows(), best.Table.Rows())) > 0 {
			best, bestNamed = p, named
		}
	}
	return best, nil
}

// place places fields on a table's columns by their headers.
func place(t Table, fields []Field) *Plan {
	p := &Plan{Table: t, Fields: fields, Columns: map[string]int{}}
	type fit struct {
		field, col, score int
	}
	var fits []fit
	for i, f := range fields {
		for _, c := range t.Columns {
			if s := headerFit(f.Name, c.Header); s > 0 {
				fits = append(fits, fit{i, c.Col, s})
			}
		}
	}
	// Strongest fits first: an exact header takes its column before a
	// header that merely holds a field's word.
	slices.SortStableFunc(fits, func(a, b fit) int { return b.score - a.score })
	taken, done := map[int]bool{}, map[int]bool{}
	for _, a := range fits {
		if done[a.field] || taken[a.col] {
			continue
		}
		n := 0
		for _, b := range fits {
			if b.field == a.field && b.score == a.score && !taken[b.col] {
				n++
			}
		}
		done[a.field] = true
		if n > 1 {
			continue // two headers fit it as well: not guessed
		}
		taken[a.col] = true
		p.Columns[fields[a.field].Name] = a.col
	}
	for _, f := range fields {
		if _, ok := p.Columns[f.Name]; !ok {
			p.Unplaced = append(p.Unplaced, f.Name)
		}
	}
	return p
}

// Assign places a field on the column whose letters a model gave; an
// error says why it cannot be (a column outside the table, one that
// holds another field, a field the plan has not).
func (p *Plan) Assign(field, letters string) error {
	if !slices.ContainsFunc(p.Fields, func(f Field) bool { return f.Name == field }) {
		return fmt.Errorf("%s is not a field of the schema", field)
	}
	r, err := ParseRef(strings.TrimSpace(letters) + "1")
	if err != nil {
		return fmt.Errorf("field %s: %q is not a column's letters", field, letters)
	}
	if r.Col < p.Table.Range.From.Col || r.Col > p.Table.Range.To.Col {
		return fmt.Errorf("field %s: column %s is outside the table (%s to %s)", field, ColumnName(r.Col), ColumnName(p.Table.Range.From.Col), ColumnName(p.Table.Range.To.Col))
	}
	for f, c := range p.Columns {
		if c == r.Col && f != field {
			return fmt.Errorf("field %s: column %s already holds field %s", field, ColumnName(r.Col), f)
		}
	}
	p.Columns[field] = r.Col
	p.Unplaced = slices.DeleteFunc(p.Unplaced, func(s string) bool { return s == field })
	return nil
}

// headerFit says how well a header names a field: 3 its name, 2 a
// synonym, 1 it holds the field's words, 0 not at all.
func headerFit(field, header string) int {
	fw, hw := words(field), words(header)
	if len(fw) == 0 || len(hw) == 0 {
		return 0
	}
	if strings.Join(fw, "") == strings.Join(hw, "") {
		return 3
	}
	fc, hc := canon(fw), canon(hw)
	if fc == hc {
		return 2
	}
	has := map[string]bool{}
	for _, w := range hw {
		has[w], has[canon([]string{w})] = true, true
	}
	for _, w := range fw {
		if !has[w] && !has[canon([]string{w})] {
			return 0
		}
	}
	return 1
}

// words splits a name or header into lower-case singular words:
// "unitPrice", "unit_price" and "Unit prices" all give [unit price].
func words(s string) []string {
	var out []string
	var w []rune
	flush := func() {
		if len(w) > 0 {
			out = append(out, singular(strings.ToLower(string(w))))
			w = w[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if unicode.IsUpper(r) && i > 0 && unicode.IsLower(rs[i-1]) {
				flush() // camelCase
			}
			w = append(w, r)
		case r == '#':
			flush()
			out = append(out, "number")
		default:
			flush()
		}
	}
	flush()
	return out
}

// singular takes an English plural's ending off: orders → order,
// categories → category, boxes → box; "status" and "address" stay.
func singular(w string) string {
	switch {
	case len(w) <= 3, strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "sses"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}

// synonyms are words a header may use for a field's name, each group
// led by the word they all stand for.
var synonyms = [][]string{
	{"amount", "total", "sum", "value", "price", "cost", "charge", "fee"},
	{"date", "day", "when"},
	{"customer", "client", "buyer", "purchaser"},
	{"quantity", "qty", "count", "piece"},
	{"email", "mail", "emailaddress"},
	{"phone", "telephone", "tel", "mobile", "phonenumber"},
	{"paid", "settled"},
	{"id", "identifier", "ref", "reference", "no", "number", "nr"},
	{"name", "fullname"},
	{"description", "desc", "detail"},
	{"product", "item", "article", "sku"},
	{"status", "state"},
	{"city", "town"},
	{"company", "organization", "organisation", "org", "employer", "firm"},
	{"note", "comment", "remark"},
	{"category", "type", "kind", "group"},
	{"vendor", "supplier", "seller"},
	{"tax", "vat"},
	{"region", "area", "territory"},
	{"owner", "assignee", "rep", "salesperson"},
}

var synonymOf = func() map[string]string {
	m := map[string]string{}
	for _, g := range synonyms {
		for _, w := range g {
			m[w] = g[0]
		}
	}
	return m
}()

// canon joins words with each replaced by the word its group stands for.
func canon(ws []string) string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = cmp.Or(synonymOf[w], w)
	}
	if j := strings.Join(ws, ""); synonymOf[j] != "" {
		return synonymOf[j] // "e-mail address" → email
	}
	return strings.Join(out, " ")
}

// stopWords name no table.
var stopWords = map[string]bool{"the": true, "a": true, "an": true, "of": true, "in": true, "for": true, "and": true, "to": true, "from": true, "with": true, "each": true, "every": true, "all": true, "row": true, "table": true, "sheet": true, "list": true, "on": true, "by": true, "it": true, "its": true}
