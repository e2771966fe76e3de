package routine

import "fmt"

// gridStep checks a step's grid recipe: an extract's, alone (a page
// recipe and its pages read a page, not a sheet), and sound.
func gridStep(s *Step, here string) error {
	if s.Grid == nil {
		return nil
	}
	switch {
	case s.Kind != KindExtract:
		return &LoadError{Where: here + ".grid", Msg: fmt.Sprintf("a grid recipe reads a sheet's list for an extract; this is a %s step", s.Kind)}
	case s.Recipe != nil || s.List != nil:
		return &LoadError{Where: here + ".grid", Msg: "an extract reads either a sheet by a grid recipe or a page by a recipe, not both",
			Hint: `keep "grid" for a spreadsheet, or "recipe" (and "list") for a page`}
	}
	if err := s.Grid.Check(); err != nil {
		return &LoadError{Where: here + ".grid", Msg: err.Error(), Hint: "see routine/FORMAT.md, section Grid recipes"}
	}
	return nil
}
