package publicapi

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

// TestGoLineNamesNoPatch: go.mod's go line names a minor release and no
// patch (go 1.26, or go 1.26.0 when a dependency declares that, as
// golang.org/x/sys does), so that a module importing waymark is not
// forced onto a patch release of Go; and go mod tidy leaves go.mod as it
// is (it raises a go line below a dependency's, never lowers one).
func TestGoLineNamesNoPatch(t *testing.T) {
	root := filepath.Join("..", "..")
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(data)
	if m == nil {
		t.Fatal("go.mod has no go line")
	}
	if !regexp.MustCompile(`^1\.\d+(\.0)?$`).Match(m[1]) {
		t.Errorf("go.mod names go %s: name the minor release only (go 1.N or go 1.N.0)", m[1])
	}
	if testing.Short() {
		t.Skip("go mod tidy: not in -short")
	}
	cmd := exec.Command("go", "mod", "tidy", "-diff")
	cmd.Dir = root
	// Not GOPROXY=off: tidy reads the go.mod files of the whole module
	// graph, which a fresh module cache does not hold yet.
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("go mod tidy would change go.mod or go.sum: %v\n%s", err, out)
	}
}

// TestNoUnmaintainedModules: go.mod requires none of the modules whose
// maintainers have stopped and named a successor, since a consumer of
// waymark inherits them. gopkg.in/yaml.v3 is archived; the YAML
// organisation's go.yaml.in/yaml/v3 is its maintained fork, same API.
func TestNoUnmaintainedModules(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for old, successor := range map[string]string{
		"gopkg.in/yaml.v3": "go.yaml.in/yaml/v3",
	} {
		if regexp.MustCompile(`(?m)^\s*(require\s+)?` + regexp.QuoteMeta(old) + `\s`).Match(data) {
			t.Errorf("go.mod requires %s, which is unmaintained: use %s", old, successor)
		}
	}
}
