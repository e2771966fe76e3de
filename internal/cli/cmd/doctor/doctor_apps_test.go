package doctor

import (
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/apps"
	"github.com/waymark-dev/waymark/internal/config"
)

func TestDoctorApps(t *testing.T) {
	o, out := goodDoctor(t, false)
	o.LoadConfig = func() (*config.Config, error) {
		c := config.Default()
		c.Apps = []apps.App{{Name: "Team grid", Kind: apps.KindSheet, Hosts: []string{"grid.corp.example"}, NameBox: "#ref"}}
		return c, nil
	}
	o.RenderPage = nil // --apps starts no browser
	if err := doctorApps(o); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{
		"Team grid (sheet): grid.corp.example — from your config",
		"Google Sheets (sheet): docs.google.com /spreadsheets/* — unverified",
		"Excel for the web (sheet):",
		"Jspreadsheet CE (sheet): a page matching .jss_worksheet — tested",
		"x-data-spreadsheet (sheet): a page matching .x-spreadsheet canvas.x-spreadsheet-table — cannot be read: known so the sheet commands say why",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}
	if strings.Index(text, "Team grid") > strings.Index(text, "Google Sheets") {
		t.Error("the config's apps come first")
	}
}
