package driver

import "github.com/waymark-dev/waymark/sheet"

// A secret typed into a spreadsheet cell is shown by the sheet as the
// cell's text, which no field marking covers: the value is registered
// with the session (registry.go) and replaced by «secret:NAME» in every
// outline and every sheet read of the session from then on (invariant
// 2), and in what the pages echo.

// rememberCellSecret masks value under name from now on.
func (s *Session) rememberCellSecret(name, value string) { s.register(name, value) }

// maskCellSecrets replaces the secrets typed in the session in text.
func (s *Session) maskCellSecrets(text string) string { return s.mask(text) }

// maskGrid masks the secrets typed in the session in a grid's values.
func (s *Session) maskGrid(g *sheet.Grid) {
	for i := range g.Rows {
		for j := range g.Rows[i] {
			g.Rows[i][j].Value = s.mask(g.Rows[i][j].Value)
		}
	}
}
