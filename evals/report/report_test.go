package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteKeepsOtherSections writes two sections one after the other and
// checks latest.json and latest.md hold both, and that writing one again
// replaces only its own figures.
func TestWriteKeepsOtherSections(t *testing.T) {
	dir := t.TempDir()
	if err := Write(dir, Section{Name: "drift", Figures: map[string]int{"variants": 200}, Markdown: "| a |\n|---|\n| 1 |"}); err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, Section{Name: "shapes", Figures: map[string]int{"lists": 30}, Markdown: "shapes table"}); err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, Section{Name: "drift", Figures: map[string]int{"variants": 210}, Markdown: "new drift table"}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "latest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]map[string]int
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got["drift"]["variants"] != 210 || got["shapes"]["lists"] != 30 {
		t.Errorf("latest.json = %s", b)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "latest.md"))
	for _, want := range []string{"## drift", "new drift table", "## shapes", "shapes table"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("latest.md lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(string(md), "| 1 |") {
		t.Errorf("latest.md kept drift's old table:\n%s", md)
	}
	if err := Write(dir, Section{Name: "../x"}); err == nil {
		t.Error("a section name with a path was written")
	}
}
