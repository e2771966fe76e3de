package cmdutil

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// PrintTable writes rows for people on a terminal (a header and aligned
// columns) and for scripts otherwise (no header, one tab between fields,
// tabs and newlines inside fields turned to spaces so columns stay put).
func PrintTable(w io.Writer, tty bool, header []string, rows [][]string) error {
	if !tty {
		for _, r := range rows {
			clean := make([]string, len(r))
			for i, v := range r {
				clean[i] = FieldSpaces.Replace(v)
			}
			if _, err := fmt.Fprintln(w, strings.Join(clean, "\t")); err != nil {
				return err
			}
		}
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	for _, r := range rows {
		cells := make([]string, len(r))
		for i, v := range r {
			cells[i] = truncate(FieldSpaces.Replace(v), 60)
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

// FieldSpaces keeps a field on its line and in its column.
var FieldSpaces = strings.NewReplacer("\t", " ", "\n", " ", "\r", " ")

// truncate shortens s to at most n runes, marking the cut; on a terminal
// only, where a long title would wrap the table.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
