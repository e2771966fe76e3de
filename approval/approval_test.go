package approval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/routine"
)

const approved = `{"format": "waymark.routine/1", "name": "order", "version": 1, "steps": [
  {"id": "open", "kind": "goto", "url": "http://shop.test/checkout"},
  {"id": "rows", "kind": "each", "over": "items", "do": [
    {"id": "pay", "kind": "act", "op": "click", "target": {"locator": "css=#pay", "fingerprint": {"role": "button", "name": "pay"}},
     "approved": {"action": "click", "path": "/checkout", "control": "button \"Pay\"", "why": "submits the form"}}]}],
  "variables": [{"name": "items", "list": true}]}
`

func write(t *testing.T, dir, name, body string) string {
	t.Helper()
	file := filepath.Join(dir, name)
	if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

func load(t *testing.T, a *Authority, file string) (*routine.Routine, *Trust) {
	t.Helper()
	r, trust, err := a.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	return r, trust
}

// TestGrantBindsToTheFile: a grant holds for the file as it was, by any
// name that leads to it; not after an edit, a copy elsewhere, or for the
// routine changed in memory.
func TestGrantBindsToTheFile(t *testing.T) {
	a, dir := New(t.TempDir()), t.TempDir()
	file := write(t, dir, "order.json", approved)
	if r, trust := load(t, a, file); trust.Holds(r) || !strings.Contains(trust.Why(r), "no person saved or approved") {
		t.Fatalf("a file no one approved: %q", trust.Why(r))
	}
	if err := a.Grant(file, "record stop"); err != nil {
		t.Fatal(err)
	}
	r, trust := load(t, a, file)
	if !trust.Holds(r) || trust.Why(r) != "" {
		t.Fatalf("the approved file: %q", trust.Why(r))
	}
	// A symbolic link to it is the same file.
	link := filepath.Join(t.TempDir(), "link.json")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	if r, trust := load(t, a, link); !trust.Holds(r) {
		t.Errorf("by a link: %q", trust.Why(r))
	}
	// The same bytes elsewhere were not what the person approved.
	cp := write(t, t.TempDir(), "order.json", approved)
	if r, trust := load(t, a, cp); trust.Holds(r) {
		t.Error("a copy holds")
	}
	// Changed in memory after it was loaded.
	r.Steps[1].Do[0].Target.Locator = "css=#delete"
	if trust.Holds(r) || !strings.Contains(trust.Why(r), "changed after it was loaded") {
		t.Errorf("changed in memory: %q", trust.Why(r))
	}
	// An edit inside the loop, or only of whitespace: any byte.
	for _, tt := range []struct{ edit, want string }{
		{strings.Replace(approved, "#pay", "#delete", 1), "step rows (steps[1]) changed"},
		{strings.Replace(approved, `"list": true`, `"list": true, "description": "x"`, 1), "its variables changed"},
		{approved + "\n", "outside its steps and variables"},
	} {
		write(t, dir, "order.json", tt.edit)
		r, trust := load(t, a, file)
		if trust.Holds(r) || !strings.Contains(trust.Why(r), tt.want) || !strings.Contains(trust.Why(r), "waymark routine approve "+file) {
			t.Errorf("edited: %q, want %q", trust.Why(r), tt.want)
		}
	}
}

func TestNoTrust(t *testing.T) {
	var none *Trust
	r, err := routine.Parse([]byte(approved))
	if err != nil {
		t.Fatal(err)
	}
	if none.Holds(r) || !strings.Contains(none.Why(r), "did not come from a file a person saved") {
		t.Errorf("nil: %q", none.Why(r))
	}
	if Relayed(r, false).Holds(r) || !Relayed(r, true).Holds(r) {
		t.Error("relayed")
	}
	if got := RecordedIn(r); len(got) != 1 || got[0].Path != "steps[1].do[0]" || got[0].ID != "pay" {
		t.Errorf("recorded: %+v", got)
	}
}
