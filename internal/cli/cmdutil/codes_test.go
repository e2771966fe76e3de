package cmdutil

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "write docs/json.md's table of error codes from the code")

const (
	jsonDoc        = "../../../docs/json.md"
	codeTableBegin = "<!-- error codes: written by `go test ./internal/cli/cmdutil -run TestJSONDocCodes -update` from internal/cli/cmdutil/codes.go -->\n"
	codeTableEnd   = "<!-- end of error codes -->"
)

// tableCodes are every code the table lists.
func tableCodes() []string {
	var all []string
	for _, r := range codeTable() {
		all = append(all, r.codes...)
	}
	return all
}

// TestJSONDocCodes: docs/json.md's table of error codes and exit statuses
// is the one the code makes, and every code the page quotes in an
// example is one of them (it said no_match where the wire says
// not_found). -update writes the table.
func TestJSONDocCodes(t *testing.T) {
	raw, err := os.ReadFile(jsonDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	begin, end := strings.Index(doc, codeTableBegin), strings.Index(doc, codeTableEnd)
	if begin < 0 || end < begin {
		t.Fatalf("%s has no table of codes between %q and %q", jsonDoc, strings.TrimSpace(codeTableBegin), codeTableEnd)
	}
	want := codeTableMarkdown()
	if got := doc[begin+len(codeTableBegin) : end]; got != want {
		if !*update {
			t.Errorf("%s's table of codes is not the code's: run go test ./internal/cli/cmdutil -run TestJSONDocCodes -update\n--- doc\n%s--- code\n%s", jsonDoc, got, want)
		} else if err := os.WriteFile(jsonDoc, []byte(doc[:begin+len(codeTableBegin)]+want+doc[end:]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	known := tableCodes()
	for _, m := range regexp.MustCompile(`\\?"code\\?":\s*\\?"([a-z_]+)\\?"`).FindAllStringSubmatch(doc, -1) {
		if !slices.Contains(known, m[1]) {
			t.Errorf("%s quotes the code %q, which no command sends", jsonDoc, m[1])
		}
	}
}

// TestEveryCodeInTheTable: every code the CLI's sources send (a code*
// constant, a literal returned by an errorCode or ErrorCode, or put in an
// envelope's Code) is in the table, so the page lists it.
func TestEveryCodeInTheTable(t *testing.T) {
	// The commands send codes from every folder of internal/cli.
	var files []string
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") {
			files = append(files, path)
		}
		return err
	})
	if err != nil || len(files) < 50 {
		t.Fatalf("the CLI's sources: %d files, %v", len(files), err)
	}
	known := tableCodes()
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		check := func(e ast.Expr, where string) {
			lit, ok := e.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return
			}
			code, _ := strconv.Unquote(lit.Value)
			if !slices.Contains(known, code) && code != "internal" {
				t.Errorf("%s: %s sends the code %q, not in the table (codes.go)", fset.Position(lit.Pos()), where, code)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.ValueSpec:
				for i, id := range x.Names {
					if strings.HasPrefix(strings.ToLower(id.Name), "code") && i < len(x.Values) {
						check(x.Values[i], id.Name)
					}
				}
			case *ast.FuncDecl:
				if x.Body == nil || !strings.HasSuffix(strings.ToLower(x.Name.Name), "code") || x.Name.Name == "ExitCode" {
					return true
				}
				ast.Inspect(x.Body, func(n ast.Node) bool {
					if r, ok := n.(*ast.ReturnStmt); ok {
						for _, e := range r.Results {
							check(e, x.Name.Name)
						}
					}
					return true
				})
			case *ast.CompositeLit:
				if typeName(x.Type) == "ErrorBody" {
					for _, el := range x.Elts {
						if kv, ok := el.(*ast.KeyValueExpr); ok {
							if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Code" {
								check(kv.Value, "an envelope")
							}
						}
					}
				}
			}
			return true
		})
	}
}

// typeName is the name of a composite literal's type, with or without
// its package (ErrorBody, cmdutil.ErrorBody).
func typeName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return x.Sel.Name
	}
	return ""
}
