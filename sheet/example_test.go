package sheet_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/sheet"
)

// grid builds a grid from lines of cells parted by "|"; a cell written
// "*x" is bold.
func grid(lines ...string) *sheet.Grid {
	g := &sheet.Grid{}
	for _, l := range lines {
		var row []sheet.Cell
		for _, v := range strings.Split(l, "|") {
			bold := strings.HasPrefix(v, "*")
			row = append(row, sheet.Cell{Value: strings.TrimPrefix(v, "*"), Bold: bold})
		}
		g.Rows = append(g.Rows, row)
	}
	return g
}

// Tables are found by their shape: an empty column parts the two, the
// lone cells above are their titles, the first header is told by the
// numbers under it, the second by its bold, and the last row of the
// first sums the amounts.
func ExampleTables() {
	g := grid(
		"Orders 2026|||||Staff",
		"|||||",
		"Date|Customer|Amount|Paid||*Name|*Team",
		"2026-01-03|Ann|$12.50|yes||Kim|Red",
		"2026-01-04|Bob|$1,200.00|no||Lee|Blue",
		"Total||$1,212.50|||",
	)
	for _, t := range sheet.Tables(g) {
		fmt.Printf("%s (header by %s)\n", t.String(), t.HeaderBy)
	}
	// Output:
	// A3:D6 'Orders 2026': 2 rows; Date, Customer, Amount (currency), Paid (yes/no); total row 6 (header by types)
	// F3:G5 'Staff': 2 rows; Name, Team (header by bold)
}

// A grid recipe reads the table again with no model wherever its columns
// went.
func ExampleRecipe_Read() {
	fields := []sheet.Field{{Name: "client", Type: "string"}, {Name: "amount", Type: "number"}}
	p, _ := sheet.PlanFor(sheet.Tables(grid("Customer|Amount", "Ann|$12.50", "Bob|$3")), "every order", fields)
	r, _ := p.Recipe("", 2)
	moved := grid("Report", "", "Amount|Paid|Customer", "$12.50|yes|Ann", "$3|no|Bob")
	got, err := r.Read(moved, time.Now())
	fmt.Println(got.Rows, err)
	// Output: [map[amount:12.5 client:Ann] map[amount:3 client:Bob]] <nil>
}
