package calls

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// commandWords are the first words of the CLI's commands (their Use
// lines), and a flag's dashes.
func commandWords(t *testing.T, fset *token.FileSet) *regexp.Regexp {
	t.Helper()
	// The commands live in internal/cli/cmd/<noun> and the root in
	// internal/cli/root: read every folder of the CLI.
	var files []string
	err := filepath.WalkDir("../internal/cli", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			files = append(files, path)
		}
		return err
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("the CLI's files: %v", err)
	}
	words := map[string]bool{"--": true}
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if kv, ok := n.(*ast.KeyValueExpr); ok {
				if k, ok := kv.Key.(*ast.Ident); ok && (k.Name == "Use" || k.Name == "use") {
					if lit, ok := kv.Value.(*ast.BasicLit); ok {
						use, _ := strconv.Unquote(lit.Value)
						if w := strings.Fields(use); len(w) > 0 {
							words[regexp.QuoteMeta(w[0])] = true
						}
					}
				}
			}
			return true
		})
	}
	alt := make([]string, 0, len(words))
	for w := range words {
		alt = append(alt, w)
	}
	return regexp.MustCompile(`waymark (?:` + strings.Join(alt, "|") + `)\b`)
}

// TestHintsNameCommandsOneWay: no hint in the module writes a waymark
// command by hand (run waymark snapshot, run "waymark snapshot", …):
// each goes through [Cmd], so every hint names a command the same way.
// A hint is the hint argument of Errorf or (cmdutil.)UsageErrorf, a Hint or Fix
// field, what a function named …hint… returns, a value named …hint….
func TestHintsNameCommandsOneWay(t *testing.T) {
	fset := token.NewFileSet()
	handWritten := commandWords(t, fset)
	n := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "testdata", "node_modules", "vendor":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		n++
		for _, e := range hintExprs(f) {
			ast.Inspect(e, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok && callName(c) == "Cmd" {
					return false // the one way
				}
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				s, _ := strconv.Unquote(lit.Value)
				if handWritten.MatchString(s) {
					t.Errorf("%s: a hint writes a command by hand: %s; use calls.Cmd", fset.Position(lit.Pos()), lit.Value)
				}
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("read %d files: is the module root ..?", n)
	}
}

// hintExprs are the expressions of f that make hints.
func hintExprs(f *ast.File) []ast.Expr {
	var out []ast.Expr
	isHint := func(name string) bool { return strings.Contains(strings.ToLower(name), "hint") }
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CallExpr:
			switch name := callName(x); {
			case name == "Errorf" && len(x.Args) > 1 && isCallsErrorf(x):
				out = append(out, x.Args[1])
			case (name == "usageErrorf" || name == "UsageErrorf") && len(x.Args) > 0:
				out = append(out, x.Args[0])
			case name == "WithHint" && len(x.Args) > 1:
				out = append(out, x.Args[1])
			}
		case *ast.KeyValueExpr:
			if k, ok := x.Key.(*ast.Ident); ok && (k.Name == "Hint" || k.Name == "Fix") {
				out = append(out, x.Value)
			}
		case *ast.AssignStmt:
			for i, l := range x.Lhs {
				if sel, ok := l.(*ast.SelectorExpr); ok && (sel.Sel.Name == "Hint" || sel.Sel.Name == "Fix") && i < len(x.Rhs) {
					out = append(out, x.Rhs[i])
				}
				if id, ok := l.(*ast.Ident); ok && isHint(id.Name) && i < len(x.Rhs) {
					out = append(out, x.Rhs[i])
				}
			}
		case *ast.ValueSpec:
			for i, id := range x.Names {
				if isHint(id.Name) && i < len(x.Values) {
					out = append(out, x.Values[i])
				}
			}
		case *ast.FuncDecl:
			if x.Body != nil && isHint(x.Name.Name) {
				ast.Inspect(x.Body, func(n ast.Node) bool {
					if r, ok := n.(*ast.ReturnStmt); ok {
						out = append(out, r.Results...)
					}
					return true
				})
			}
		}
		return true
	})
	return out
}

// isCallsErrorf reports whether c is calls.Errorf (or Errorf within
// package calls), not fmt.Errorf.
func isCallsErrorf(c *ast.CallExpr) bool {
	switch f := c.Fun.(type) {
	case *ast.SelectorExpr:
		x, ok := f.X.(*ast.Ident)
		return ok && x.Name == "calls"
	case *ast.Ident:
		return true
	}
	return false
}

func callName(c *ast.CallExpr) string {
	switch f := c.Fun.(type) {
	case *ast.SelectorExpr:
		return f.Sel.Name
	case *ast.Ident:
		return f.Name
	}
	return ""
}
