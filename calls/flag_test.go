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
	flag := regexp.MustCompile(`(?:^|[\s(,'"])--([a-z][a-z0-9-]*)`)
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
				for _, m := range flag.FindAllStringSubmatch(s, -1) {
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
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("read %d files: is the module root ..?", n)
	}
	for _, f := range HintFlags {
		if goFlags[f] == "" {
			t.Errorf("--%s: no words for a program (goFlags)", f)
		}
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
