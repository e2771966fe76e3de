package sheet

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// build makes a grid from lines of cells parted by "|": a cell written
// "*x" is bold, "^x" merged-looking (a title cell spanning others).
func build(lines ...string) *Grid {
	g := &Grid{}
	for _, l := range lines {
		var row []Cell
		if l != "" {
			for _, v := range strings.Split(l, "|") {
				c := Cell{}
				for len(v) > 0 && (v[0] == '*' || v[0] == '^') {
					if v[0] == '*' {
						c.Bold = true
					} else {
						c.Merged = true
					}
					v = v[1:]
				}
				c.Value = v
				row = append(row, c)
			}
		}
		g.Rows = append(g.Rows, row)
	}
	return g
}

func describe(g *Grid) []string {
	var out []string
	for _, t := range Tables(g) {
		out = append(out, t.String())
	}
	return out
}

func wantTables(t *testing.T, g *Grid, want ...string) []Table {
	t.Helper()
	got := describe(g)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("tables:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	return Tables(g)
}

// Two tables side by side, parted by an empty spacer column, each under
// its own title two rows up; a merged-looking title cell; a total row.
func TestTwoTablesWithTitles(t *testing.T) {
	g := build(
		"^Orders 2026|||||Returns",
		"",
		"Date|Customer|Amount|Paid||Date|Order|Reason",
		"2026-01-03|Ann|$12.50|yes||2026-01-09|1001|damaged",
		"2026-01-04|Bob|$1,200.00|no||2026-01-12|1004|late",
		"2026-01-05|Cy|$7.25|yes||",
		"Total||$1,219.75|",
	)
	tables := wantTables(t, g,
		"A3:D7 'Orders 2026': 3 rows; Date, Customer, Amount (currency), Paid (yes/no); total row 7",
		"F3:H5 'Returns': 2 rows; Date, Order (number), Reason",
	)
	o := tables[0]
	if o.HeaderBy != "types" || o.First != 3 || o.Last != 5 || o.Total != 6 || o.TitleAt == nil || o.TitleAt.String() != "A1" {
		t.Errorf("orders: %+v", o)
	}
	if c := o.Columns[2]; c.Min != "$7.25" || c.Max != "$1,200.00" || c.Distinct != 3 || c.Values != 3 {
		t.Errorf("amount column: %+v", c)
	}
	if c := o.Columns[0]; c.Min != "2026-01-03" || c.Max != "2026-01-05" {
		t.Errorf("date column: %+v", c)
	}
}

// A header over text only is told by its bold; the same rows without
// bold are a guess (first-row), and a first row of numbers is no header.
func TestHeaderByBold(t *testing.T) {
	g := build("*Name|*City|*Team", "Ann|Paris|Red", "Bob|Oslo|Blue", "Cy|Rome|Red")
	tables := wantTables(t, g, "A1:C4: 3 rows; Name, City, Team")
	if tables[0].HeaderBy != "bold" {
		t.Errorf("header by %q", tables[0].HeaderBy)
	}
	g = build("Name|City|Team", "Ann|Paris|Red", "Bob|Oslo|Blue")
	if tb := Tables(g); len(tb) != 1 || tb[0].HeaderBy != "first-row" {
		t.Errorf("plain header: %+v", tb)
	}
	g = build("1|2|3", "4|5|6", "7|8|9")
	wantTables(t, g, "A1:C3: 3 rows; no header; column A (number), column B (number), column C (number)")
	// Bold rows all the way down: the first is no header by bold.
	g = build("*1|*2", "*3|*4")
	if tb := Tables(g); tb[0].HeaderBy != "" {
		t.Errorf("all bold: %+v", tb[0])
	}
}

// A header not bold, over numbers, dates and percentages: told by the
// type shift; a single blank cell inside the table parts nothing.
func TestHeaderByTypeShift(t *testing.T) {
	g := build(
		"Region|Q1|Growth|Since",
		"North|1,234.50|12.5%|1 Nov 2025",
		"South||3%|2 Nov 2025",
		"East|99|-1.5%|3 Nov 2025",
	)
	tables := wantTables(t, g, "A1:D4: 3 rows; Region, Q1 (number), Growth (percent), Since (date)")
	if tables[0].HeaderBy != "types" || tables[0].Columns[1].Values != 2 {
		t.Errorf("%+v", tables[0])
	}
}

// A total row told by its sums alone, and a title cell on the block's
// own first row; a grid whose Origin is not A1.
func TestTotalBySums(t *testing.T) {
	g := build(
		"^Stock",
		"Item|Units|Cost",
		"Bolt|10|1.50",
		"Nut|20|0.50",
		"Gear|5|12.00",
		"|35|14.00",
	)
	g.Origin = Ref{Row: 9, Col: 2}
	tables := wantTables(t, g, "C11:E15 'Stock': 3 rows; Item, Units (number), Cost (number); total row 15")
	if tables[0].TitleAt.String() != "C10" {
		t.Errorf("title at %v", tables[0].TitleAt)
	}
	// The same last row off by one is a row.
	g = build("Item|Units", "Bolt|10", "Nut|20", "Gear|5", "Pin|36")
	wantTables(t, g, "A1:B5: 4 rows; Item, Units (number)")
}

// Hostile grids: random noise, one value everywhere, ragged rows, an
// empty grid. None may hang; each answers within a time bound.
func TestHostileGrids(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	noise := &Grid{}
	vals := []string{"", "", "x", "12", "yes", "2026-01-02", "$3.50", "7%", "Total", "lorem ipsum"}
	for i := 0; i < 1000; i++ {
		row := make([]Cell, 52)
		for j := range row {
			row[j] = Cell{Value: vals[rnd.IntN(len(vals))], Bold: rnd.IntN(7) == 0}
		}
		noise.Rows = append(noise.Rows, row)
	}
	same := &Grid{}
	for i := 0; i < 1000; i++ {
		row := make([]Cell, 52)
		for j := range row {
			row[j] = Cell{Value: "7"}
		}
		same.Rows = append(same.Rows, row)
	}
	ragged := build("a|b|c|d|e", "1", "2|3|4|5|6|7|8|9", "", "x|", "|||||||||z")
	stripes := &Grid{} // alternating rows and columns: many tiny blocks
	for i := 0; i < 400; i++ {
		row := make([]Cell, 52)
		for j := range row {
			if i%2 == 0 && j%2 == 0 {
				row[j] = Cell{Value: "1"}
			}
		}
		stripes.Rows = append(stripes.Rows, row)
	}
	wide := &Grid{Rows: [][]Cell{make([]Cell, MaxCells+10)}}
	wide.Rows[0][MaxCells+5] = Cell{Value: "far"}
	for name, g := range map[string]*Grid{"noise": noise, "same": same, "ragged": ragged, "stripes": stripes, "empty": {}, "wide": wide} {
		start := time.Now()
		tables := Tables(g)
		d := time.Since(start)
		// About 0.1 s each on an idle machine; the bound leaves room for
		// the race detector on a loaded one, and still catches a hang.
		if d > 20*time.Second {
			t.Errorf("%s: %v", name, d)
		}
		for _, tb := range tables {
			_ = tb.String()
			_ = tb.View(g)
		}
		t.Logf("%s: %d tables in %v", name, len(tables), d)
	}
	if tb := Tables(same); len(tb) != 1 || tb[0].Rows() != 1000 || tb[0].HeaderBy != "" {
		t.Errorf("one value: %d tables", len(tb))
	}
	// The last two rows hold two lone cells far apart: no table.
	wantTables(t, ragged, "A1:H3: 2 rows; a (number), b (number), c (number), d (number), e (number), column F (number), column G (number), column H (number)")
}

// KindOf tells numbers, currencies, percentages, dates and yes/no.
func TestKindOf(t *testing.T) {
	for v, want := range map[string]Kind{
		"": KindEmpty, "  ": KindEmpty, "12": KindNumber, "1,234.50": KindNumber, "1.234,50": KindNumber, "-3": KindNumber,
		"(1,200)": KindNumber, "$14.50": KindCurrency, "12,00 €": KindCurrency, "USD 5": KindCurrency, "12.5%": KindPercent,
		"2026-11-01": KindDate, "1 Nov 2026": KindDate, "03/04/2012": KindDate, "01.11.2026": KindDate,
		"yes": KindYesNo, "FALSE": KindYesNo, "✓": KindYesNo, "Ja": KindYesNo, "nein": KindYesNo, "Oui": KindYesNo, "いいえ": KindYesNo, "Japan": KindText, "Order 12": KindText, "12 apples": KindText, "Total": KindText,
		"1.2.3": KindText, "$": KindText, "%": KindText, "1.234.5678": KindNumber, "12,34,567": KindText, "1 234,50": KindNumber,
		"1,23": KindNumber, "1,234,567.89": KindNumber, "1234,567": KindNumber, "-": KindText, "+5": KindNumber, "−5": KindNumber, "5-": KindText,
	} {
		if got := KindOf(v); got != want {
			t.Errorf("KindOf(%q) = %q, want %q", v, got, want)
		}
	}
	for v, want := range map[string]float64{"1,234.50": 1234.5, "$14.50": 14.5, "12.5%": 12.5, "(1,200)": -1200, "-$5": -5, "1.234,50": 1234.5} {
		if got, ok := Number(v); !ok || got != want {
			t.Errorf("Number(%q) = %v %v, want %v", v, got, ok, want)
		}
	}
	if _, ok := Number("Order 12"); ok {
		t.Error("Number read text")
	}
}

// The view of a long table stays short: header, ends, the rows where a
// column changes kind, the rest counted.
func TestView(t *testing.T) {
	lines := []string{"Date|Customer|Amount"}
	for i := 0; i < 200; i++ {
		amt := fmt.Sprintf("%d.00", i+1)
		if i == 100 {
			amt = "n/a"
		}
		lines = append(lines, fmt.Sprintf("2026-01-%02d|C%d|%s", i%28+1, i%7, amt))
	}
	g := build(lines...)
	tb := Tables(g)[0]
	v := tb.View(g)
	for _, want := range []string{
		"- C \"Amount\": number, 200 values, 200 distinct, from 1.00 to 200.00",
		"row | A | B | C\n1 (header) | Date | Customer | Amount\n2 | 2026-01-01 | C0 | 1.00\n",
		"(97 rows)\n102 | 2026-01-17 | C2 | n/a\n(96 rows)\n199 |",
		"201 | 2026-01-04 | C3 | 200.00\n",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	if n := strings.Count(v, "\n"); n > 20 {
		t.Errorf("view of %d lines:\n%s", n, v)
	}
}

// Tables stacked one over another, each under its own title; the title
// nearest a table is its own, whatever comes first.
func TestStackedTables(t *testing.T) {
	g := build(
		"Report",
		"|Orders",
		"",
		"Item|Units",
		"Bolt|10",
		"Nut|20",
		"",
		"",
		"Staff",
		"*Name|*Team",
		"Kim|Red",
		"Lee|Blue",
		"Total Gym|x",
	)
	wantTables(t, g,
		"A4:B6 'Orders': 2 rows; Item, Units (number)",
		"A10:B13 'Staff': 3 rows; Name, Team",
	)
}

// BenchmarkTables finds the tables of a 1,000 × 26 sheet of orders and
// writes its view.
func BenchmarkTables(b *testing.B) {
	g := &Grid{}
	head := make([]Cell, 26)
	for j := range head {
		head[j] = Cell{Value: fmt.Sprintf("Column %d", j), Bold: true}
	}
	g.Rows = append(g.Rows, head)
	for i := 1; i < 1000; i++ {
		row := make([]Cell, 26)
		for j := range row {
			switch j % 4 {
			case 0:
				row[j] = Cell{Value: fmt.Sprintf("2026-%02d-%02d", i%12+1, i%28+1)}
			case 1:
				row[j] = Cell{Value: fmt.Sprintf("Customer %d", i%97)}
			case 2:
				row[j] = Cell{Value: fmt.Sprintf("$%d.%02d", i*7%5000, i%100)}
			default:
				row[j] = Cell{Value: []string{"yes", "no"}[i%2]}
			}
		}
		g.Rows = append(g.Rows, row)
	}
	for b.Loop() {
		for _, t := range Tables(g) {
			_ = t.View(g)
		}
	}
}
