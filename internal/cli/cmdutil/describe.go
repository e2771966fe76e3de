package cmdutil

import (
	"fmt"

	"github.com/waymark-dev/waymark/calls"
)

// DescribePage is `https://… "Title"`, with the HTTP status when it is an
// error, which agents otherwise miss.
func DescribePage(p calls.PageInfo) string {
	s := calls.PageName(p.URL, p.Title)
	if p.Status >= 400 {
		s += fmt.Sprintf(" (HTTP %d)", p.Status)
	}
	return s
}
