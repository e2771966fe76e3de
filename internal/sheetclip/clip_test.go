package sheetclip

import (
	"reflect"
	"testing"

	"github.com/waymark-dev/waymark/sheet"
)

// Cell is the sheet's cell, for short.
type Cell = sheet.Cell

func TestParseTSV(t *testing.T) {
	for _, c := range []struct {
		name   string
		in     string
		markup bool
		want   [][]string
	}{
		{"plain", "a\tb\r\nc\td", false, [][]string{{"a", "b"}, {"c", "d"}}},
		{"trailing newline", "a\tb\n", false, [][]string{{"a", "b"}}},
		{"quoted tab and newline", "\"x\ty\"\t\"two\nlines\"", false, [][]string{{"x\ty", "two\nlines"}}},
		{"doubled quotes", `"say ""hi"""` + "\tz", false, [][]string{{`say "hi"`, "z"}}},
		{"a quote that is text", `5" nails` + "\t\"open", false, [][]string{{`5" nails`, `"open`}}},
		{"empty cells", "\t\n\t", false, [][]string{{"", ""}, {"", ""}}},
		{"markup", "a&lt;b\t&amp;amp;", true, [][]string{{"a<b", "&amp;"}}},
		{"empty", "", false, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := ParseTSV(c.in, c.markup); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("ParseTSV(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestFromClipboardFormatting(t *testing.T) {
	// The shape Google Sheets puts on the clipboard: a table with inline
	// styles; a merged title over two columns.
	html := `<meta charset="utf-8"><google-sheets-html-origin><table><tbody>
<tr><td colspan="2" style="font-weight:bold;">Orders</td><td></td></tr>
<tr><td style="background-color:#fff2cc;font-weight:700">Date</td><td><b>Amount</b></td><td style="background-color:#ffffff">x</td></tr>
<tr><td>2026-01-02</td><td>12<br>line</td><td></td></tr>
</tbody></table>`
	text := "Orders\t\t\nDate\tAmount\tx\n2026-01-02\t\"12\nline\"\t"
	rows, formatted := FromClipboard(text, html, false)
	if !formatted {
		t.Fatal("no formatting read")
	}
	want := [][]Cell{
		{{Value: "Orders", Bold: true, Merged: true}, {}, {}},
		{{Value: "Date", Bold: true, Fill: "#fff2cc"}, {Value: "Amount", Bold: true}, {Value: "x"}},
		{{Value: "2026-01-02"}, {Value: "12\nline"}, {}},
	}
	if !reflect.DeepEqual(rows, want) {
		t.Fatalf("got %+v\nwant %+v", rows, want)
	}
	// HTML alone gives the values too.
	only, _ := FromClipboard("", html, false)
	if only[2][1].Value != "12\nline" || only[0][0].Value != "Orders" {
		t.Fatalf("html only: %+v", only)
	}
}
