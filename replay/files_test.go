package replay

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/waymark-dev/waymark/routine"
)

// TestRelativeFilesKeepTheirFolder: an upload step's or a file answer's
// relative path goes to the driver with the folder of whoever wrote it:
// the routine's (Options.Dir) for a literal or a template, the caller's
// (Options.VarsDir) for a variable's value. The driver alone knows which
// answers are files, so a form step names the folder of each answer.
func TestRelativeFilesKeepTheirFolder(t *testing.T) {
	tg := `"target": {"locator": "label=Email", "fingerprint": {"role": "textbox", "name": "Email"}}`
	r, err := routine.Parse([]byte(`{"format": "waymark.routine/1", "name": "t", "variables": [{"name": "letter"}, {"name": "who"}], "steps": [
		{"kind": "goto", "url": "http://shop.test/checkout"},
		{"kind": "act", "op": "upload", ` + tg + `, "value": {"literal": "cv.pdf"}},
		{"kind": "act", "op": "upload", ` + tg + `, "value": {"from": "input", "slot": "letter"}},
		{"kind": "act", "op": "upload", ` + tg + `, "value": {"template": "docs/%who%.pdf"}},
		{"kind": "form", "answers": {"cv": {"literal": "cv.pdf"}, "letter": {"from": "input", "slot": "letter"}, "name": {"from": "input", "slot": "who"}}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name         string
		dir, varsDir string
		acts         []string // each upload's Files[0] and Dir
		formDir      string
		formDirs     map[string]string
	}{
		{"both folders", "/routines", "/work", []string{"cv.pdf in /routines", "letter.pdf in /work", "docs/ann.pdf in /routines"},
			"/work", map[string]string{"cv": "/routines"}},
		// A routine given as JSON to an MCP server: no folder for either;
		// the daemon refuses a relative path.
		{"no folder", "", "", []string{"cv.pdf in ", "letter.pdf in ", "docs/ann.pdf in "}, "", nil},
		// The routine's folder only: a variable's value has none.
		{"the routine's folder only", "/routines", "", []string{"cv.pdf in /routines", "letter.pdf in ", "docs/ann.pdf in /routines"},
			"", map[string]string{"cv": "/routines"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := shop()
			o := opts()
			o.Vars = map[string]string{"letter": "letter.pdf", "who": "ann"}
			o.Dir, o.VarsDir = tt.dir, tt.varsDir
			res, err := Run(context.Background(), d, r, o)
			if err != nil || res.Status != StatusOK {
				t.Fatalf("replay = %v %v", res, err)
			}
			var acts []string
			for _, a := range d.acts {
				acts = append(acts, a.Files[0]+" in "+a.Dir)
			}
			if diff := cmp.Diff(tt.acts, acts); diff != "" {
				t.Errorf("uploads (-want +got):\n%s", diff)
			}
			if len(d.fills) != 1 {
				t.Fatalf("%d fills", len(d.fills))
			}
			if f := d.fills[0]; f.Dir != tt.formDir || !cmp.Equal(tt.formDirs, f.Dirs) {
				t.Errorf("form fill: dir %q, dirs %v; want %q, %v", f.Dir, f.Dirs, tt.formDir, tt.formDirs)
			}
		})
	}
}
