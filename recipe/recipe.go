// Package recipe reads a list from a page with no model. A recipe
// (waymark.recipe/1) says where a list's rows are in the page (the element
// that repeats per row, and its container) and how each field is read
// within a row: by its column's header, a stable attribute, the label
// before it, its role, or its place by tag; never by a generated class
// name or id. The pilot learns one from rows a model read (Learn), keeps
// it only if it reads those rows back from the same page exactly, and
// reads with it afterwards (Read). Both run as one script in the driver's
// isolated world: the page sees nothing.
package recipe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// Format names the file format; older versions keep loading.
const Format = "waymark.recipe/1"

// Ways a field is read within a row, in the order they are preferred.
const (
	ByHeader = "header" // the cell under the column headed Header
	ByAttr   = "attr"   // the element Select names by a stable attribute or class
	ByLabel  = "label"  // the element after the one whose text is Label
	ByRole   = "role"   // the first element of Select's tag that has a role (heading, link, …)
	ByTag    = "tag"    // the element at Select, a path of tags from the row ("" is the row itself)
	ByNone   = "none"   // the model found it in no row: always null
)

// Recipe is how a list is read from a page.
type Recipe struct {
	Format string `json:"format"`
	// URL is where it was learned, for people; a read does not check it.
	URL string `json:"url,omitempty"`
	// List is the property of the answer that holds the rows when the
	// schema is an object holding one list; empty when it is an array.
	List string `json:"list,omitempty"`
	// Container is a CSS selector of the element holding the rows.
	Container string `json:"container"`
	// Row is the tag of the container's children that are rows; a child
	// with none of the fields (a table's header row) is not a row.
	Row    string  `json:"row"`
	Fields []Field `json:"fields"`
	// Learned is how many rows the model gave when it was learned.
	Learned int `json:"learned"`
}

// Field is one value of a row and how it is read.
type Field struct {
	Name string `json:"name"`
	// Type is the schema's type for it: string, number, integer or boolean.
	Type string `json:"type"`
	// Format is the schema's format of a string: date or date-time makes
	// the value a date read as the page writes it ("3 Nov 2026",
	// "yesterday", "06/24/2012" in an en-US page) and given in ISO 8601.
	Format string `json:"format,omitempty"`
	By     string `json:"by"`
	Select string `json:"select,omitempty"`
	Header string `json:"header,omitempty"`
	Label  string `json:"label,omitempty"`
	// Attr, when set, reads that attribute instead of the text.
	Attr string `json:"attr,omitempty"`
	// Optional fields were null in some learned rows; a row without a
	// required one means the recipe no longer fits.
	Optional bool `json:"optional,omitempty"`
	// Nullable fields are ones the schema allows null: words where a
	// number, yes/no or date should be ("on request", "n/a", "—",
	// "Preis auf Anfrage") read as null rather than as a misfit.
	Nullable bool `json:"nullable,omitempty"`
	// Yes and No are, for a boolean, the page's own words for true and
	// for false ("in stock", "available"; "sold out", "ausverkauft"), in
	// lower case, learned from the model's rows; with Attr they are
	// attribute values ("badge sold-out"). Missing is the value of a row
	// where the element or attribute is absent, when that is how the page
	// says it (a "Sold out" badge shown only on the rows sold out). A
	// word seen in no learned row is a misfit, nullable or not: a new word
	// is a new meaning for a model to read, not null. With neither list
	// the page's text is read as yes/no, true/false, ✓/✗.
	Yes     []string `json:"yes,omitempty"`
	No      []string `json:"no,omitempty"`
	Missing *bool    `json:"missing,omitempty"`
}

// words reports whether f reads a yes/no by the page's own words.
func (f Field) words() bool {
	return f.Type == "boolean" && (len(f.Yes) > 0 || len(f.No) > 0 || f.Missing != nil)
}

// Parse reads a recipe file and checks it.
func Parse(b []byte) (*Recipe, error) {
	var r Recipe
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("not a recipe: %v", err)
	}
	if err := r.Check(); err != nil {
		return nil, err
	}
	return &r, nil
}

// Check says what is wrong with a recipe, or nil.
func (r *Recipe) Check() error {
	if r.Format != Format {
		return fmt.Errorf("format %q: this waymark reads %s", r.Format, Format)
	}
	if r.Container == "" || r.Row == "" {
		return fmt.Errorf("the recipe has no container or row")
	}
	if len(r.Fields) == 0 {
		return fmt.Errorf("the recipe has no fields")
	}
	for _, f := range r.Fields {
		if f.Name == "" {
			return fmt.Errorf("a field has no name")
		}
		if (len(f.Yes) > 0 || len(f.No) > 0 || f.Missing != nil) && f.Type != "boolean" {
			return fmt.Errorf("field %s: yes, no and missing are words for a boolean, and it is a %s", f.Name, f.Type)
		}
		for _, w := range f.Yes {
			if slices.Contains(f.No, w) {
				return fmt.Errorf("field %s: %q is both yes and no", f.Name, w)
			}
		}
		if f.Format != "" && (f.Type != "string" || f.Format != FormatDate && f.Format != FormatDateTime) {
			return fmt.Errorf("field %s: format %q: a recipe reads date and date-time strings", f.Name, f.Format)
		}
		ok := slices.Contains([]string{ByHeader, ByAttr, ByLabel, ByRole, ByTag, ByNone}, f.By)
		switch {
		case !ok:
			return fmt.Errorf("field %s: unknown way %q", f.Name, f.By)
		case f.By == ByHeader && f.Header == "", f.By == ByLabel && f.Label == "", (f.By == ByAttr || f.By == ByRole) && f.Select == "":
			return fmt.Errorf("field %s: by %s needs what to look for", f.Name, f.By)
		}
	}
	return nil
}

// Marshal writes a recipe as indented JSON.
func (r *Recipe) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // selectors hold ">"
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Schema is the JSON Schema of the list r reads: an array of objects with
// r's fields in r's order, each of its type or null (or an object holding
// that array, when r.List names it). A list read with no schema of its own
// (an each over a recipe's rows) is learned again with it.
func (r *Recipe) Schema() json.RawMessage {
	var b bytes.Buffer
	b.WriteString(`{"type":"array","items":{"type":"object","properties":{`)
	for i, f := range r.Fields {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(f.Name)
		format := ""
		if f.Format != "" {
			format = fmt.Sprintf(`,"format":%q`, f.Format)
		}
		fmt.Fprintf(&b, `%s:{"type":[%q,"null"]%s}`, name, f.Type, format)
	}
	b.WriteString(`}}}`)
	if r.List == "" {
		return b.Bytes()
	}
	name, _ := json.Marshal(r.List)
	return json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{%s:%s}}`, name, b.String()))
}
