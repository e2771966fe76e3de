package apps_test

import (
	"fmt"

	"github.com/waymark-dev/waymark/apps"
)

// A user's own application, matched before the built-in ones: its URL
// allows it, and its marker tells the page is one.
func ExamplePick() {
	mine := apps.App{Name: "Team grid", Kind: "sheet", Hosts: []string{"grid.corp.example"}, Marker: "#cells",
		Cell: `td[data-row="{row}"][data-col="{col}"]`}
	cands := apps.Candidates(apps.With([]apps.App{mine}), "https://grid.corp.example/q3")
	has := func(selector string) bool { return selector == "#cells" } // the page has #cells
	if a := apps.Pick(cands, has); a != nil {
		fmt.Println(a.Label())
		fmt.Println(a.CellSelector(1, 2))
	}
	fmt.Println(apps.LabelKind("Google Sheets (sheet, unverified)"))
	// Output:
	// Team grid (sheet, from the config)
	// td[data-row="1"][data-col="2"]
	// sheet
}
