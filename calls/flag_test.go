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

// foreignFlags are flags of other programs that hints name, for the
// person to type there: Chromium's, python's http.server.
var foreignFlags = map[string]bool{"enable-features": true, "log-net-log": true, "directory": true, "remote-debugging-port": true}

// TestHintFlagsAreKnown: every flag a hint outside the CLI names (a hint
// of the driver, the pilot, replay, siteapi, … which reaches MCP clients
// and Go programs as well as the CLI) is one of HintFlags, so that every
// front can say it in its own words, and a program is told the option or
// field that does the same. A hint that names a new flag fails here
// until the fronts know it (internal/mcp's TestMCPSaysEveryHintFlag
// checks MCP's words). The CLI's own hints (internal/cli, cmd) reach only
// the command line, where a flag is what to type.
func TestHintFlagsAreKnown(t *testing.T) {
	fset := token.NewFileSet()
	walkFrontsSource(t, fset, func(f *ast.File) {
		for _, e := range hintExprs(f) {
			ast.Inspect(e, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok && callName(c) == "Cmd" {
					return false // a command's flags go with it (NameCommands)
				}
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				s, _ := strconv.Unquote(lit.Value)
				for _, m := range flagInText.FindAllStringSubmatch(s, -1) {
					switch name := m[1]; {
					case foreignFlags[name]:
					case !isHintFlag(name):
						t.Errorf("%s: a hint names --%s, which is not one of HintFlags: add it, and say it to each front (goFlags here, mcpArgs in internal/mcp)", fset.Position(lit.Pos()), name)
					case strings.Contains(programWords(s), "--"+name):
						t.Errorf("%s: a program is told --%s: %q", fset.Position(lit.Pos()), name, programWords(s))
					}
				}
				return true
			})
		}
	})
	for _, f := range HintFlags() {
		if goFlags[f] == "" {
			t.Errorf("--%s: no words for a program (goFlags)", f)
		}
	}
}

// startFlags set how waymark starts the browser or the model: a message
// about a setting that cannot work (a --cdp address, a model server)
// names where it came from, for the person who set it.
var startFlags = map[string]bool{"cdp": true, "base-url": true, "model": true, "executable-path": true, "private-network": true}

// TestMessagesNameNoFlag: an error's message outside the CLI names no
// flag of the command line but the ones that set how waymark starts
// (startFlags): a message reaches every front as it is, unlike a hint
// (TestHintFlagsAreKnown); what to pass goes in the hint (calls.WithHint),
// where each front says it its way. "pass --timeout to wait longer" and
// "raise --max-steps" were in messages MCP clients read.
func TestMessagesNameNoFlag(t *testing.T) {
	fset := token.NewFileSet()
	walkFrontsSource(t, fset, func(f *ast.File) {
		ast.Inspect(f, func(n ast.Node) bool {
			var msg ast.Expr
			switch x := n.(type) {
			case *ast.CallExpr:
				switch name := callName(x); {
				case name == "Errorf" && isCallsErrorf(x) && len(x.Args) > 2:
					msg = x.Args[2]
				case name == "Errorf" && !isCallsErrorf(x) && len(x.Args) > 0, name == "New" && len(x.Args) == 1:
					msg = x.Args[0]
				}
			case *ast.KeyValueExpr:
				if k, ok := x.Key.(*ast.Ident); ok && k.Name == "Msg" {
					msg = x.Value
				}
			}
			if msg == nil {
				return true
			}
			ast.Inspect(msg, func(n ast.Node) bool {
				if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					s, _ := strconv.Unquote(lit.Value)
					for _, m := range flagInText.FindAllStringSubmatch(s, -1) {
						if isHintFlag(m[1]) && !startFlags[m[1]] {
							t.Errorf("%s: a message names --%s: say it in the hint (calls.WithHint): %q", fset.Position(lit.Pos()), m[1], s)
						}
					}
				}
				return true
			})
			return true
		})
	})
}

// flagInText is a flag anywhere in a text.
var flagInText = regexp.MustCompile(`(?:^|[\s(,'"])--([a-z][a-z0-9-]*)`)

// walkFrontsSource calls fn with each Go file of the module but the
// CLI's own (internal/cli, cmd: their words reach only the command line)
// and the tests.
func walkFrontsSource(t *testing.T, fset *token.FileSet, fn func(*ast.File)) {
	t.Helper()
	n := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "testdata", "node_modules", "vendor", "cmd":
				return filepath.SkipDir
			}
			if path == filepath.Join("..", "internal", "cli") {
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
		fn(f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("read %d files: is the module root ..?", n)
	}
}

func TestNameFlags(t *testing.T) {
	say := func(f string) string { return "<" + f + ">" }
	for _, c := range []struct{ in, want string }{
		{"give one of --after WORDS, --replace LINE or --end", "give one of <after>, <replace> or <end>"},
		{"--button is left, right or middle", "<button> is left, right or middle"},
		{"give a target to drop on or --by DX,DY, not both", "give a target to drop on or <by>, not both"},
		{"pass it with --var email=… or --secret email=env:VAR", "pass it with <var> or <secret>"},
		{`pass it as a JSON array: --var 'rows=[{"field":"…"}]'`, "pass it as a JSON array: <var>"},
		{"read it by the recipe an earlier extract saved (--recipe FILE), or", "read it by the recipe an earlier extract saved (<recipe>), or"},
		{"or pass --private-network=public to allow it", "or pass <private-network> to allow it"},
		// A command's flags are the command's ([NameCommands]); another
		// program's flags are the person's.
		{"run " + Cmd("wait --load") + " or take a snapshot", "run `waymark wait --load` or take a snapshot"},
		{"python3 -m http.server --directory DIR 8000", "python3 -m http.server --directory DIR 8000"},
		{"run the browser with --enable-features=WebMCP", "run the browser with --enable-features=WebMCP"},
	} {
		if got := NameFlags(c.in, say); got != c.want {
			t.Errorf("NameFlags(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}
