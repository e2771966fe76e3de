package shapes

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"
)

// SheetCase is a spreadsheet (served with the real Jspreadsheet CE of
// testdata/apps/sheets) holding tables laid out as people lay them out:
// a title above, a bold header, a total row, two tables stacked or side
// by side, a table that starts away from A1.
type SheetCase struct {
	Name   string
	Layout string // titled, stacked, side-by-side, total-row, offset
	Locale string
	Data   [][]string
	Style  map[string]string
	Tables []SheetTable
	// Canvas is a grid drawn on a canvas that keeps its copy in its own
	// clipboard (as x-data-spreadsheet does): it cannot be read, and the
	// dump must say what it tried and why, naming the canvas.
	Canvas bool
}

// SheetTable is one table's truth.
type SheetTable struct {
	At     string // its range, header to last row ("A2:D7")
	Title  string
	Header []string
	// First is the sheet row (1-based) of the first data row; Rows are
	// the data rows (the total row left out).
	First int
	Col   int // the sheet column (1-based) of its first column
	Rows  [][]string
	Total bool
	// Kinds are the columns' kinds as package sheet names them.
	Kinds []string
}

var sheetLayouts = []string{"titled", "stacked", "side-by-side", "total-row", "offset", "canvas"}

func genSheet(r *rand.Rand, i int) *SheetCase {
	c := &SheetCase{Layout: sheetLayouts[i%len(sheetLayouts)], Style: map[string]string{}}
	loc := locales[[]int{1, 2, 0, 2, 3}[i%5]]
	c.Locale = loc.Tag
	grid := map[[2]int]string{} // row, col (1-based) → text
	maxR, maxC := 0, 0
	put := func(row, col int, s string) {
		grid[[2]int{row, col}] = s
		maxR, maxC = max(maxR, row), max(maxC, col)
	}
	// table lays a table out with its header at (row, col).
	table := func(row, col int, title string, total bool) {
		heads := []string{"Date", "Customer", "Amount", "Paid"}
		if loc.Tag == "de" {
			heads = []string{"Datum", "Kunde", "Betrag", "Bezahlt"}
		}
		t := SheetTable{Title: title, Header: heads, Col: col, Total: total, Kinds: []string{"date", "text", "number", "yes/no"}}
		if title != "" {
			put(row-1, col, title)
		}
		for j, h := range heads {
			put(row, col+j, h)
			c.Style[cellName(row, col+j)] = "font-weight: bold"
		}
		n := 3 + r.IntN(4)
		sum := 0
		day := time.Date(2026, time.Month(1+r.IntN(10)), 1+r.IntN(20), 0, 0, 0, 0, time.UTC)
		for k := range n {
			cents := 1000 + r.IntN(200000)
			sum += cents
			amount := fmt.Sprintf("%d.%02d", cents/100, cents%100)
			date := day.AddDate(0, 0, k).Format("2006-01-02")
			yes, no := "yes", "no"
			if loc.Tag == "de" {
				amount = fmt.Sprintf("%d,%02d", cents/100, cents%100)
				date = day.AddDate(0, 0, k).Format("02.01.2006")
				yes, no = "ja", "nein"
			}
			paid := map[bool]string{true: yes, false: no}[r.IntN(2) == 0]
			cells := []string{date, person(r), amount, paid}
			for j, v := range cells {
				put(row+1+k, col+j, v)
			}
			t.Rows = append(t.Rows, cells)
		}
		t.First = row + 1
		last := row + n
		if total {
			last++
			put(last, col, map[bool]string{true: "Summe", false: "Total"}[loc.Tag == "de"])
			s := fmt.Sprintf("%d.%02d", sum/100, sum%100)
			if loc.Tag == "de" {
				s = fmt.Sprintf("%d,%02d", sum/100, sum%100)
			}
			put(last, col+2, s)
		}
		t.At = cellName(row, col) + ":" + cellName(last, col+len(heads)-1)
		c.Tables = append(c.Tables, t)
	}
	year := 2025 + r.IntN(2)
	switch c.Layout {
	case "titled":
		table(2, 1, fmt.Sprintf("Orders %d", year), false)
	case "stacked":
		table(2, 1, fmt.Sprintf("Orders Q1 %d", year), false)
		table(len(c.Tables[0].Rows)+5, 1, fmt.Sprintf("Orders Q2 %d", year), false)
	case "side-by-side":
		table(2, 1, "Invoices "+pick(r, "north", "south", "east"), false)
		table(2, 6, "Invoices "+pick(r, "west", "central"), false)
	case "total-row":
		table(2, 1, fmt.Sprintf("Umsatz %d", year), true)
	case "canvas":
		c.Canvas = true
		table(2, 1, fmt.Sprintf("Orders %d", year), false)
		c.Tables = nil // nothing can be read: the truth is the refusal
	default:
		table(4, 2, "", false)
	}
	c.Data = make([][]string, maxR)
	for row := range maxR {
		c.Data[row] = make([]string, maxC)
		for col := range maxC {
			c.Data[row][col] = grid[[2]int{row + 1, col + 1}]
		}
	}
	c.Name = fmt.Sprintf("%02d-%s-%s", i+1, c.Layout, c.Locale)
	return c
}

// cellName is A1 for row 1, column 1.
func cellName(row, col int) string {
	s := ""
	for col > 0 {
		col--
		s = string(rune('A'+col%26)) + s
		col /= 26
	}
	return fmt.Sprintf("%s%d", s, row)
}

// CanvasPage is a sheet drawn on a canvas, made like x-data-spreadsheet
// (its class names, a canvas table, an overlay taking the keys, a copy
// kept in the page's own clipboard), with the case's cells drawn.
func (c *SheetCase) CanvasPage() string {
	data, _ := json.Marshal(c.Data)
	return `<!doctype html><html><head><meta charset="utf-8"><title>Sheet</title></head><body>
<div class="x-spreadsheet"><div class="x-spreadsheet-toolbar"><div class="x-spreadsheet-toolbar-btns"><div class="x-spreadsheet-toolbar-btn" data-tooltip="Undo">↶</div></div></div>
<div class="x-spreadsheet-sheet"><canvas class="x-spreadsheet-table" width="800" height="400"></canvas>
<div class="x-spreadsheet-overlayer" tabindex="0"><div class="x-spreadsheet-overlayer-content"><div class="x-spreadsheet-editor"><textarea></textarea></div><div class="x-spreadsheet-selector"></div></div></div></div>
<div class="x-spreadsheet-bottombar"><ul class="x-spreadsheet-menu"><li class="active">sheet1</li></ul></div></div>
<script>
const data = ` + string(data) + `;
const cv = document.querySelector('canvas'), g = cv.getContext('2d');
g.font = '13px sans-serif';
data.forEach((row, r) => row.forEach((v, c) => { g.strokeRect(c * 100, r * 25, 100, 25); g.fillText(v, c * 100 + 4, r * 25 + 17); }));
let clip = '';
document.addEventListener('copy', e => { clip = JSON.stringify(data); e.preventDefault(); }, true);
window.sheetReady = true;
</script></body></html>`
}
