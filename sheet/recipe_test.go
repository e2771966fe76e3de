package sheet

import (
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/internal/schemacheck"
)

var now = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

var orderFields = []Field{
	{Name: "date", Type: "string", Format: "date"},
	{Name: "client", Type: "string"},
	{Name: "amounts", Type: "number"},
	{Name: "paid", Type: "boolean"},
	{Name: "note", Type: "string"},
}

func ordersGrid() *Grid {
	return build(
		"Sales report",
		"",
		"^Returns",
		"*Date|*Order|*Reason",
		"2026-01-09|1001|damaged",
		"2026-01-12|1004|late",
		"",
		"^Orders 2026",
		"Date|Customer|Amount|Paid|Memo",
		"24/01/2026|Ann|$12.50|yes|",
		"03/02/2026|Bob|$1,200.00|no|call back",
		"05/02/2026|Cy|n/a|yes|",
		"Total||$1,212.50||",
	)
}

func TestPlanByHeaders(t *testing.T) {
	tables := Tables(ordersGrid())
	p, err := PlanFor(tables, "every order with its client and amount", orderFields)
	if err != nil {
		t.Fatal(err)
	}
	if p.Table.Title != "Orders 2026" || !p.Named {
		t.Fatalf("chose %s", p.Table.String())
	}
	want := map[string]int{"date": 0, "client": 1, "amounts": 2, "paid": 3}
	if !reflect.DeepEqual(p.Columns, want) || !reflect.DeepEqual(p.Unplaced, []string{"note"}) {
		t.Errorf("columns %v, unplaced %v", p.Columns, p.Unplaced)
	}
	// Unnamed: the table whose headers place most fields.
	p, _ = PlanFor(tables, "read it", orderFields)
	if p.Table.Title != "Orders 2026" || p.Named {
		t.Errorf("unnamed: chose %s", p.Table.String())
	}
	p, _ = PlanFor(tables, "the returns", []Field{{Name: "date", Type: "string"}, {Name: "reasons", Type: "string"}})
	if p.Table.Title != "Returns" || p.Columns["reasons"] != 2 {
		t.Errorf("returns: %s %v", p.Table.String(), p.Columns)
	}

	// A model's letters are checked: inside the table, one field a column.
	p, _ = PlanFor(tables, "orders", orderFields)
	for letters, bad := range map[string]string{"Z": "outside the table", "B": "already holds field client", "4": "not a column's letters"} {
		if err := p.Assign("note", letters); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("Assign(note, %s) = %v", letters, err)
		}
	}
	if err := p.Assign("nope", "E"); err == nil {
		t.Error("an unknown field was placed")
	}
	if err := p.Assign("note", "e"); err != nil || p.Columns["note"] != 4 || len(p.Unplaced) != 0 {
		t.Errorf("Assign(note, e) = %v, %v %v", err, p.Columns, p.Unplaced)
	}

	rows, dropped := p.Rows(ordersGrid(), now)
	wantRows := `[{"amounts":12.5,"client":"Ann","date":"2026-01-24","note":null,"paid":true},{"amounts":1200,"client":"Bob","date":"2026-02-03","note":"call back","paid":false},{"amounts":null,"client":"Cy","date":"2026-02-05","note":null,"paid":true}]`
	if b, _ := json.Marshal(rows); string(b) != wantRows {
		t.Errorf("rows:\n%s\nwant\n%s", b, wantRows)
	}
	if !reflect.DeepEqual(dropped, []string{"/2/amounts"}) {
		t.Errorf("dropped %v", dropped)
	}
}

func TestHeaderFit(t *testing.T) {
	for _, c := range []struct {
		field, header string
		want          int
	}{
		{"unitPrice", "Unit prices", 3}, {"unit_price", "UNIT PRICE", 3}, {"email", "E-mail", 3}, {"order_number", "Order #", 3},
		{"client", "Customer", 2}, {"qty", "Quantity", 2}, {"email", "Email address", 2}, {"categories", "Type", 2},
		{"amount", "Amount (USD)", 1}, {"date", "Order date", 1},
		{"quantity", "Unit price", 0}, {"name", "Customer", 0}, {"status", "Stat", 0},
	} {
		if got := headerFit(c.field, c.header); got != c.want {
			t.Errorf("headerFit(%q, %q) = %d, want %d", c.field, c.header, got, c.want)
		}
	}
	// Two headers that hold a field's word as well: placed on neither.
	tb := Tables(build("Order date|Ship date|Order", "2026-01-01|2026-01-02|1"))
	p, _ := PlanFor(tb, "", []Field{{Name: "date", Type: "string"}, {Name: "order", Type: "number"}})
	if _, ok := p.Columns["date"]; ok || p.Columns["order"] != 2 {
		t.Errorf("ambiguous: %v", p.Columns)
	}
}

// The grid recipe finds its table again when rows are added above,
// columns inserted or swapped, and fails naming a renamed header.
func TestGridRecipe(t *testing.T) {
	g := ordersGrid()
	p, _ := PlanFor(Tables(g), "orders", orderFields[:4])
	r, err := p.Recipe("orders", 3)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := r.Marshal()
	want := `{"format":"waymark.grid/1","list":"orders","title":"Orders 2026","header":["Date","Customer","Amount","Paid","Memo"],"fields":[{"name":"date","type":"string","format":"date","header":"Date","column":"A"},{"name":"client","type":"string","header":"Customer","column":"B"},{"name":"amounts","type":"number","header":"Amount","column":"C"},{"name":"paid","type":"boolean","header":"Paid","column":"D"}],"learned":3}`
	if c, _ := json.Marshal(r); string(c) != want {
		t.Fatalf("recipe:\n%s\nwant\n%s", c, want)
	}
	back, err := ParseRecipe(b)
	if err != nil || !reflect.DeepEqual(back, r) {
		t.Fatalf("ParseRecipe: %v", err)
	}
	first, err := r.Read(g, now)
	if err != nil {
		t.Fatal(err)
	}
	wantRows, _ := json.Marshal(first.Rows)

	edit := func(f func(lines []string) []string) *Grid {
		lines := []string{"Sales report", "", "^Returns", "*Date|*Order|*Reason", "2026-01-09|1001|damaged", "2026-01-12|1004|late", "", "^Orders 2026",
			"Date|Customer|Amount|Paid|Memo", "24/01/2026|Ann|$12.50|yes|", "03/02/2026|Bob|$1,200.00|no|call back", "05/02/2026|Cy|n/a|yes|", "Total||$1,212.50||"}
		return build(f(lines)...)
	}
	cells := func(l string) []string { return strings.Split(l, "|") }
	join := func(c []string) string { return strings.Join(c, "|") }
	for name, g := range map[string]*Grid{
		"rows added above": edit(func(l []string) []string {
			return append([]string{"Q1", "new note", "", "x|y", ""}, l...)
		}),
		"a column inserted before": edit(func(l []string) []string {
			for i := 8; i < len(l); i++ {
				l[i] = join(append([]string{[]string{"", "", "Region", "N", "S", "E", ""}[min(i-6, 6)]}, cells(l[i])...))
			}
			return l
		}),
		"columns swapped": edit(func(l []string) []string {
			for i := 8; i < len(l); i++ {
				c := cells(l[i])
				c[0], c[2] = c[2], c[0]
				c[1], c[3] = c[3], c[1]
				l[i] = join(c)
			}
			return l
		}),
		"moved right and down": func() *Grid {
			g := ordersGrid()
			g.Origin = Ref{Row: 40, Col: 3}
			return g
		}(),
	} {
		got, err := r.Read(g, now)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if b, _ := json.Marshal(got.Rows); string(b) != string(wantRows) {
			t.Errorf("%s: rows\n%s\nwant\n%s\n%s", name, b, wantRows, Describe(g))
		}
	}

	renamed := edit(func(l []string) []string {
		l[8] = "Date|Customer|Total|Paid|Memo"
		return l
	})
	_, err = r.Read(renamed, now)
	if !errors.Is(err, ErrMisfit) || !strings.Contains(err.Error(), `the header "Amount" (field amounts) is gone: the nearest table, A9:E13, has Date, Customer, Total, Paid, Memo`) {
		t.Errorf("renamed header: %v", err)
	}
	if _, err := r.Read(&Grid{}, now); !errors.Is(err, ErrMisfit) || !strings.Contains(err.Error(), "no table") {
		t.Errorf("empty sheet: %v", err)
	}
}

// A header over text alone, neither bold nor over other kinds, is still
// found by a recipe that names it.
func TestGridRecipeHeaderNotTold(t *testing.T) {
	r := &Recipe{Format: RecipeFormat, Header: []string{"Name", "City"}, Fields: []RecipeField{{Name: "city", Type: "string", Header: "City"}}}
	got, err := r.Read(build("Name|City|Name", "Ann|Paris|x", "Bob|Oslo|y"), now)
	if err != nil || len(got.Rows) != 2 || got.Rows[1]["city"] != "Oslo" {
		t.Fatalf("%v %v", got, err)
	}
}

// The grid recipes written agree with routine/schema/grid-1.json.
func TestGridRecipeFitsItsSchema(t *testing.T) {
	raw, err := os.ReadFile("../routine/schema/grid-1.json")
	if err != nil {
		t.Fatal(err)
	}
	sch, err := schemacheck.Compile(raw)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := PlanFor(Tables(ordersGrid()), "orders", orderFields[:4])
	r, _ := p.Recipe("", 3)
	b, _ := r.Marshal()
	var v any
	json.Unmarshal(b, &v)
	if problems := sch.Problems(v); len(problems) != 0 {
		t.Errorf("%v\n%s", problems, b)
	}
	for _, bad := range []string{
		`{"format":"waymark.grid/1","header":[],"fields":[{"name":"a","type":"string"}],"learned":0}`,
		`{"format":"waymark.grid/1","header":[],"fields":[{"name":"a","type":"date","header":"A"}],"learned":0}`,
	} {
		var v any
		json.Unmarshal([]byte(bad), &v)
		if len(sch.Problems(v)) == 0 {
			t.Errorf("the schema takes %s", bad)
		}
		if _, err := ParseRecipe([]byte(bad)); err == nil {
			t.Errorf("ParseRecipe takes %s", bad)
		}
	}
}
