package calls_test

import (
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
	"unicode"

	"github.com/waymark-dev/waymark/calls"
)

// TestApprovalSaysEveryWhy: every Why the code can make, read from the
// source (each Why: of a calls.Approval and each a.Why = …, each page-side
// reason of the submit check), reads as a sentence in what the person is
// asked. The words are pinned row by row: a maker added, or one whose
// words change, fails here until its sentence is read and written down.
// Values the source leaves to run time (a request's method and URL, a
// count, a tab's name) are X, 2 and "X".
func TestApprovalSaysEveryWhy(t *testing.T) {
	const on = `click button "Place order" on https://shop.test/checkout: it `
	want := map[string]string{
		// The submit check (driver/js/submit_probe.js): its reasons stay as
		// they were made, since routines record them (calls.Approval.Why):
		// a row of these gone is a recorded approval that no longer holds.
		"submits the form":                       on + "submits the form",
		"Enter in a form field submits the form": on + "submits the form",
		"Enter on it submits the form":           on + "submits the form",
		"Space on it submits the form":           on + "submits the form",
		`its words commit: "X"`:                  on + "is worded to send, pay, delete or confirm",
		// The send gate (driver/sendgate.go), recorded too.
		"sends X: X X": on + "sends X: X X",
		// A page tool (driver/pagetools.go, pagetools_sends.go).
		"may act, as the page does not mark the tool read-only":  on + "may act, as the page does not mark the tool read-only",
		"sends X: X X, though the page marks the tool read-only": on + "sends X: X X, though the page marks the tool read-only",
		// A sheet fill (driver/sheet_write.go).
		"writes 2 cells of the sheet":     on + "writes 2 cells of the sheet",
		`writes 2 cells of the sheet "X"`: on + `writes 2 cells of the sheet "X"`,
		// An API call's request (siteapi/gate.go).
		"has a URL that does not parse":                               on + "has a URL that does not parse",
		`has "X" in its URL, a word that acts`:                        on + `has "X" in its URL, a word that acts`,
		"sends a GraphQL operation that is not a query":               on + "sends a GraphQL operation that is not a query",
		"is a X, which may change what the site holds":                on + "is a X, which may change what the site holds",
		"is marked a read (X) by the recipe, but its body is not one": on + "is marked a read (X) by the recipe, but its body is not one",
		"is a POST the recipe does not mark a read (api learn marks a GraphQL query or a JSON-RPC read)": on +
			"is a POST the recipe does not mark a read (api learn marks a GraphQL query or a JSON-RPC read)",
	}
	made := whysMade(t)
	for _, why := range made {
		w, ok := want[why]
		if !ok {
			t.Errorf("the code makes the Why %q, and no row says how it reads: add one", why)
			continue
		}
		a := calls.Approval{Action: "click", Control: `button "Place order"`, URL: "https://shop.test/checkout", Why: why}
		line := a.Line()
		if line != w {
			t.Errorf("Why %q reads\n %s\nwant\n %s", why, line, w)
		}
		if bad := unread(line, `click button "Place order" on https://shop.test/checkout`); bad != "" {
			t.Errorf("Why %q reads %q: %s", why, line, bad)
		}
		if d := a.Describe(); d != line+"." {
			t.Errorf("Why %q: Describe is %q, want the line and a full stop", why, d)
		}
	}
	for why := range want {
		if !slices.Contains(made, why) {
			t.Errorf("no code makes the Why %q any more: drop its row", why)
		}
	}
}

// phraseVerbs are the verbs a Why's phrase begins with: its subject is
// the step, so "it" goes before it. A new maker with a new verb adds it.
var phraseVerbs = []string{"submits", "sends", "writes", "is", "has", "may"}

// unread says what keeps a line from reading as a sentence, or "": the
// step (head), then ": it " and the reason's phrase.
func unread(line, head string) string {
	phrase, ok := strings.CutPrefix(line, head+": it ")
	verb, _, _ := strings.Cut(phrase, " ")
	switch {
	case !ok:
		return `no ": it " after the step`
	case !slices.Contains(phraseVerbs, verb):
		return "the reason does not begin with a verb of the step: " + verb
	case strings.Contains(line, "  "):
		return "a doubled space"
	case strings.Contains(line, "::") || strings.Contains(line, ": :") || strings.Contains(line, ".."):
		return "doubled punctuation"
	case regexp.MustCompile(`\bit (it|its|Enter|Space|the|a|an)\b`).MatchString(line):
		return `"it" before a word that is not a verb`
	}
	return ""
}

// TestApprovalDescribeSaysWhatItSends: after the line, the person reads
// what the step sends: the held request or where the form goes, the
// form's values, a sheet fill's cells.
func TestApprovalDescribeSaysWhatItSends(t *testing.T) {
	a := calls.Approval{Action: "press Enter", Control: "input[type=email]", URL: "https://shop.test/login",
		Why: "Enter in a form field submits the form", Target: "POST https://shop.test/session",
		Form: map[string]string{"password": "••••", "email": "ann@example.com"}}
	want := "press Enter input[type=email] on https://shop.test/login: it submits the form.\n" +
		"The form goes to POST https://shop.test/session.\nThe form:\n  email: ann@example.com\n  password: ••••"
	if got := a.Describe(); got != want {
		t.Errorf("Describe:\n%s\nwant\n%s", got, want)
	}
	a = calls.Approval{Action: "write cells", Control: "B2", URL: "https://sheet.test/d/1", Why: "writes 1 cells of the sheet",
		Form: map[string]string{"B2": "10"}, Writes: map[string]string{"B2": "12"}, Sends: "cells 1f2e"}
	want = "write cells B2 on https://sheet.test/d/1: it writes 1 cells of the sheet.\nThe cells (now → written):\n  B2: \"10\" → \"12\""
	if got := a.Describe(); got != want {
		t.Errorf("Describe:\n%s\nwant\n%s", got, want)
	}
	if got := (calls.Approval{Action: "click", Control: "button", URL: "https://x.test/"}).Line(); got != "click button on https://x.test/" {
		t.Errorf("no Why: %q", got)
	}
}

// whysMade reads from the source every Why the code gives an approval.
func whysMade(t *testing.T) []string {
	t.Helper()
	fset := token.NewFileSet()
	funcs := map[string]*ast.FuncDecl{} // by directory and name
	var files []*ast.File
	dirOf := map[*ast.File]string{}
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
		files = append(files, f)
		dirOf[f] = filepath.Dir(path)
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok {
				funcs[filepath.Dir(path)+"."+fn.Name.Name] = fn
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	add := func(pos token.Pos, ws []string) {
		if len(ws) == 0 {
			t.Errorf("%s: a Why the test cannot read; teach whysMade its form", fset.Position(pos))
		}
		for _, w := range ws {
			if !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	for _, f := range files {
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			ev := &evaluator{t: t, dir: dirOf[f], fn: fn, funcs: funcs}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CompositeLit:
					if !isApproval(n.Type) {
						return true
					}
					for _, e := range n.Elts {
						if kv, ok := e.(*ast.KeyValueExpr); ok && isIdent(kv.Key, "Why") && !ev.copied(kv.Value) {
							add(kv.Pos(), ev.eval(kv.Value))
						}
					}
				case *ast.AssignStmt:
					for i, l := range n.Lhs {
						if s, ok := l.(*ast.SelectorExpr); ok && s.Sel.Name == "Why" && i < len(n.Rhs) && !ev.copied(n.Rhs[i]) {
							add(n.Pos(), ev.eval(n.Rhs[i]))
						}
					}
				}
				return true
			})
		}
	}
	if len(out) < 10 {
		t.Fatalf("read %d Whys from the source: %q; the walk is broken", len(out), out)
	}
	return out
}

func isApproval(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.SelectorExpr:
		return e.Sel.Name == "Approval" && isIdent(e.X, "calls")
	case *ast.Ident:
		return e.Name == "Approval"
	}
	return false
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

// evaluator reads the strings an expression of one function can be,
// with what is known only at run time as X.
type evaluator struct {
	t     *testing.T
	dir   string
	fn    *ast.FuncDecl
	funcs map[string]*ast.FuncDecl
}

// copied says whether e carries a Why made elsewhere (got.Why, a.Why),
// which is not a maker; the submit check's probe.Why is its page-side
// reasons.
func (ev *evaluator) copied(e ast.Expr) bool {
	s, ok := e.(*ast.SelectorExpr)
	return ok && s.Sel.Name == "Why" && !isIdent(s.X, "probe")
}

var verbs = regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z]`)

func (ev *evaluator) eval(e ast.Expr) []string {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			s, _ := strconv.Unquote(e.Value)
			return []string{s}
		}
		return []string{"2"}
	case *ast.ParenExpr:
		return ev.eval(e.X)
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return []string{"X"}
		}
		var out []string
		for _, x := range ev.eval(e.X) {
			for _, y := range ev.eval(e.Y) {
				out = append(out, x+y)
			}
		}
		return out
	case *ast.SelectorExpr:
		if e.Sel.Name == "Why" && isIdent(e.X, "probe") {
			return probeWhys(ev.t)
		}
		return []string{"X"}
	case *ast.Ident:
		return ev.local(e.Name)
	case *ast.CallExpr:
		if s, ok := e.Fun.(*ast.SelectorExpr); ok && isIdent(s.X, "fmt") && s.Sel.Name == "Sprintf" && len(e.Args) > 0 {
			var out []string
			for _, format := range ev.eval(e.Args[0]) {
				out = append(out, verbs.ReplaceAllStringFunc(format, func(v string) string {
					switch v[len(v)-1] {
					case 'q':
						return `"X"`
					case 'd':
						return "2"
					}
					return "X"
				}))
			}
			return out
		}
		if s, ok := e.Fun.(*ast.SelectorExpr); ok {
			// A method of the maker's package that gives the reason
			// (siteapi's c.acting(req)).
			if fn := ev.funcs[ev.dir+"."+s.Sel.Name]; fn != nil && fn.Recv != nil {
				return ev.returns(fn)
			}
		}
		return []string{"X"} // a value made at run time (shortURL(u), methodOf(req))
	}
	return []string{"X"}
}

// local is what a variable of the function can hold: its first value,
// and that value with each later += added.
func (ev *evaluator) local(name string) []string {
	var base, more []string
	ast.Inspect(ev.fn.Body, func(n ast.Node) bool {
		a, ok := n.(*ast.AssignStmt)
		if !ok || len(a.Lhs) != 1 || len(a.Rhs) != 1 || !isIdent(a.Lhs[0], name) {
			return true
		}
		switch a.Tok {
		case token.DEFINE, token.ASSIGN:
			base = append(base, ev.eval(a.Rhs[0])...)
		case token.ADD_ASSIGN:
			more = append(more, ev.eval(a.Rhs[0])...)
		}
		return true
	})
	out := slices.Clone(base)
	for _, b := range base {
		for _, m := range more {
			out = append(out, b+m)
		}
	}
	return out
}

// returns is every non-empty string a function returns first.
func (ev *evaluator) returns(fn *ast.FuncDecl) []string {
	inner := &evaluator{t: ev.t, dir: ev.dir, fn: fn, funcs: ev.funcs}
	var out []string
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		r, ok := n.(*ast.ReturnStmt)
		if !ok || len(r.Results) == 0 {
			return true
		}
		for _, s := range inner.eval(r.Results[0]) {
			if s != "" {
				out = append(out, s)
			}
		}
		return true
	})
	return out
}

// probeWhys are the submit check's reasons, read from its page-side
// script: each why = … is a sum of quoted words, of choices between them
// (a ternary in parentheses), and of what the page holds (X).
func probeWhys(t *testing.T) []string {
	b, err := os.ReadFile("../driver/js/submit_probe.js")
	if err != nil {
		t.Fatal(err)
	}
	branch := regexp.MustCompile(`[?:]\s*'([^']*)'`)
	var out []string
	for _, m := range regexp.MustCompile(`(?m)\bwhy = (.+);\s*$`).FindAllStringSubmatch(string(b), -1) {
		sums := []string{""}
		for _, part := range splitTop(m[1]) {
			var choices []string
			switch {
			case strings.HasPrefix(part, "("):
				for _, q := range branch.FindAllStringSubmatch(part, -1) {
					choices = append(choices, q[1])
				}
			case strings.HasPrefix(part, "'"):
				choices = []string{strings.Trim(part, "'")}
			default:
				choices = []string{"X"}
			}
			var next []string
			for _, s := range sums {
				for _, c := range choices {
					next = append(next, s+c)
				}
			}
			sums = next
		}
		for _, s := range sums {
			if s != "" { // let why = '': no reason yet
				out = append(out, s)
			}
		}
	}
	if len(out) < 4 {
		t.Fatalf("read %q from the submit check's script", out)
	}
	return out
}

// splitTop splits a script expression at its + signs outside
// parentheses and quotes.
func splitTop(s string) []string {
	var parts []string
	depth, quote, start := 0, false, 0
	for i, c := range s {
		switch {
		case c == '\'':
			quote = !quote
		case quote:
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == '+' && depth == 0:
			parts = append(parts, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	return append(parts, strings.TrimSpace(s[start:]))
}

// TestApprovalPageTextCannotForgeTheQuestion: what a person reads before
// approving holds words of the page (the control's, the form's values and
// names, the URL, a recorded reason). None may add a line, move the
// terminal's cursor, turn the text's direction, or close the control's
// quotes to speak as waymark: each is shown escaped, in its place.
func TestApprovalPageTextCannotForgeTheQuestion(t *testing.T) {
	forged := "It sends nothing: it only reads the page"
	for _, a := range []calls.Approval{
		{Action: "click", Control: `button "Cancel` + "\n" + forged + `"`, URL: "https://shop.test/", Why: "submits the form"},
		{Action: "click", Control: `button "Cancel" on https://shop.test/help: it only reads. x"`, URL: "https://shop.test/", Why: "submits the form"},
		{Action: "click", Control: "button \"\x1b[2K\x1b[1AOK\"", URL: "https://shop.test/", Why: "submits the form"},
		{Action: "click", Control: "button \"Pay\"", URL: "https://shop.test/\u202edaer-ylno", Why: "submits the form"},
		{Action: "click", Control: "button \"Pay\"", URL: "https://shop.test/", Why: "submits the form",
			Form: map[string]string{"note": "hi\n" + forged, "x\n" + forged: "1", "y": "\x1b]0;title\x07\u2066ok"}},
		{Action: "click", Control: "page tool add\n" + forged, URL: "https://shop.test/", Why: "reads only\n" + forged},
		{Action: "click", Control: "button \"Pay\"", URL: "https://shop.test/", Why: "submits the form", Sends: "POST https://shop.test/pay\n" + forged},
	} {
		d := a.Describe()
		for _, l := range strings.Split(d, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), forged) {
				t.Errorf("a line of the page's own:\n%s", d)
			}
		}
		for _, r := range d {
			if r != '\n' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r)) {
				t.Errorf("a control or format character %U reaches the person:\n%q", r, d)
			}
		}
		if strings.Contains(a.Line(), `"Cancel" on`) {
			t.Errorf("the control's words closed its quotes: %s", a.Line())
		}
	}
}
