// Package report keeps the evaluations' published figures: each eval
// writes its own section (evals/results/NAME.json and NAME.md), and every
// write rebuilds latest.json and latest.md from all the sections present,
// so one eval run alone never erases another's figures.
package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
)

// Dir is the results folder, relative to an eval package's folder (the
// working directory of its test).
const Dir = "../results"

// Section is one eval's figures and its Markdown table.
type Section struct {
	// Name keys the section in latest.json ("drift", "shapes", …).
	Name string
	// Figures is marshalled as the section's JSON value.
	Figures any
	// Markdown is the section's part of latest.md, without its heading.
	Markdown string
}

// Write stores s in dir and rebuilds latest.json and latest.md there.
func Write(dir string, s Section) error {
	if s.Name == "" || strings.ContainsAny(s.Name, `/\.`) {
		return fmt.Errorf("report: section name %q: use a plain word", s.Name)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	js, err := json.MarshalIndent(s.Figures, "", "  ")
	if err != nil {
		return fmt.Errorf("report: %s: %w", s.Name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, s.Name+".json"), append(js, '\n'), 0o644); err != nil {
		return err
	}
	head := fmt.Sprintf("<!-- %s, %s/%s, %d cores -->\n", time.Now().UTC().Format("2006-01-02"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	if err := os.WriteFile(filepath.Join(dir, s.Name+".md"), []byte(head+strings.TrimSpace(s.Markdown)+"\n"), 0o644); err != nil {
		return err
	}
	return rebuild(dir)
}

// rebuild merges every section file in dir into latest.json and latest.md.
func rebuild(dir string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return err
	}
	all := map[string]json.RawMessage{}
	var names []string
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		if name == "latest" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if !json.Valid(b) {
			return fmt.Errorf("report: %s is not JSON; delete it and run its eval again", f)
		}
		all[name] = json.RawMessage(bytes.TrimSpace(b))
		names = append(names, name)
	}
	slices.Sort(names)
	js, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "latest.json"), append(js, '\n'), 0o644); err != nil {
		return err
	}
	var md strings.Builder
	md.WriteString("# Evaluation results\n\nWritten by `make evals`; each section by its own eval (evals/NAME/README.md says what it measures).\n")
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join(dir, name+".md"))
		if err != nil {
			continue // a section with figures and no table
		}
		fmt.Fprintf(&md, "\n## %s\n\n%s", name, b)
	}
	return os.WriteFile(filepath.Join(dir, "latest.md"), []byte(md.String()), 0o644)
}
