package driver

import (
	"strings"

	"github.com/waymark-dev/waymark/secret"
	"github.com/waymark-dev/waymark/sheet"
)

// A secret typed into a spreadsheet cell is shown by the sheet as the
// cell's text, which no field marking covers: the value is remembered and
// replaced by «secret:NAME» in every outline and every sheet read of the
// session from then on (invariant 2), and in what the pages echo.

// cellSecret is one secret typed into a cell.
type cellSecret struct{ name, value string }

// rememberCellSecret masks value under name from now on.
func (s *Session) rememberCellSecret(name, value string) {
	if value == "" {
		return
	}
	s.log.typed.Add(name, value) // what the pages echo of it (pagelog.go)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cellSecrets = append(s.cellSecrets, cellSecret{name: name, value: value})
}

// maskCellSecrets replaces the cell secrets in text.
func (s *Session) maskCellSecrets(text string) string {
	s.mu.Lock()
	list := s.cellSecrets
	s.mu.Unlock()
	for _, c := range list {
		text = strings.ReplaceAll(text, c.value, secret.Mark(c.name))
	}
	return text
}

// maskGrid masks the cell secrets in a grid's values.
func (s *Session) maskGrid(g *sheet.Grid) {
	s.mu.Lock()
	n := len(s.cellSecrets)
	s.mu.Unlock()
	if n == 0 {
		return
	}
	for i := range g.Rows {
		for j := range g.Rows[i] {
			g.Rows[i][j].Value = s.maskCellSecrets(g.Rows[i][j].Value)
		}
	}
}
