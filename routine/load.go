package routine

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/lazyre"
	"github.com/waymark-dev/waymark/internal/schemacheck"
	"github.com/waymark-dev/waymark/recipe"
	"github.com/waymark-dev/waymark/secret"
)

// Schema is the JSON Schema of the current format, [Format]. The loader
// checks every file against it (after upgrading an older one).
//
//go:embed schema/routine-1.json
var Schema []byte

// ErrInvalid is what every load error wraps (through [*LoadError]), beside
// calls.ErrBadInput.
var ErrInvalid = errors.New("invalid routine")

// LoadError is a routine that cannot be loaded: Where names the place
// (`steps[3].value`, `variables[0].name`, or "" for the whole file).
type LoadError struct {
	File  string // the file, when loaded from one
	Where string
	Msg   string
	Hint  string // what to do; may be empty
}

func (e *LoadError) Error() string {
	var b strings.Builder
	b.WriteString("routine")
	if e.File != "" {
		b.WriteString(" " + e.File)
	}
	if e.Where != "" {
		b.WriteString(": " + e.Where)
	}
	b.WriteString(": " + e.Msg)
	return b.String()
}

// Unwrap makes a LoadError both [ErrInvalid] and calls.ErrBadInput, so
// fronts report it as bad input with its hint.
func (e *LoadError) Unwrap() []error {
	return []error{ErrInvalid, &calls.Error{Kind: calls.ErrBadInput, Msg: e.Msg, Hint: e.Hint}}
}

// upgrades turns a file of an older format into the next one: each takes
// the raw JSON of its version and returns the raw JSON of the next, with
// its "format" field set to the next version's string. A new format adds
// the upgrade from the one before it; the loader chains them.
var upgrades = map[string]func(raw map[string]any) (map[string]any, error){}

// Formats lists the format versions this build loads, newest first.
func Formats() []string {
	out := []string{Format}
	for k := range upgrades {
		out = append(out, k)
	}
	slices.Sort(out[1:])
	slices.Reverse(out[1:])
	return out
}

// Load reads and checks a routine file. Nothing is returned half-loaded:
// the routine comes back whole, or an error (a [*LoadError]) naming the
// place.
func Load(path string) (*Routine, error) {
	r, _, err := LoadRaw(path)
	return r, err
}

// LoadRaw is [Load], and the bytes the routine was read from: what the
// approval authority (package approval) binds a person's approval to.
func LoadRaw(path string) (*Routine, []byte, error) {
	b, err := readRegular(path)
	if err != nil {
		return nil, nil, err
	}
	r, err := Parse(b)
	var le *LoadError
	if errors.As(err, &le) {
		le.File = path
	}
	if err != nil {
		return nil, nil, err
	}
	return r, b, nil
}

// Parse reads and checks a routine: JSON, a format this build loads
// (older ones are upgraded), the schema, declared variables, and no
// literal that looks like a secret.
func Parse(data []byte) (*Routine, error) {
	// Editors on Windows start UTF-8 files with a byte order mark; JSON
	// has no use for it.
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	var doc map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return nil, &LoadError{Msg: "not JSON: " + jsonProblem(data, err), Hint: "fix the JSON syntax at that place"}
	}
	if dec.More() {
		return nil, &LoadError{Msg: "not JSON: more than one value in the file"}
	}
	format, _ := doc["format"].(string)
	for format != Format {
		up, ok := upgrades[format]
		if !ok {
			what := fmt.Sprintf("unknown format %q", format)
			if format == "" {
				what = `no "format" field`
			}
			return nil, &LoadError{Where: "format", Msg: fmt.Sprintf("%s: this waymark loads %s", what, strings.Join(Formats(), ", ")),
				Hint: "a newer format needs a newer waymark; otherwise set \"format\": \"" + Format + "\""}
		}
		next, err := up(doc)
		if err != nil {
			return nil, &LoadError{Where: "format", Msg: fmt.Sprintf("upgrading from %s: %v", format, err)}
		}
		doc = next
		f, _ := doc["format"].(string)
		if f == format {
			return nil, &LoadError{Where: "format", Msg: fmt.Sprintf("the upgrade of %s did not change the format", format)}
		}
		format = f
	}
	if err := validate(doc); err != nil {
		return nil, err
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return nil, &LoadError{Msg: err.Error()}
	}
	var r Routine
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, &LoadError{Msg: err.Error()}
	}
	if err := Validate(&r); err != nil {
		return nil, err
	}
	return &r, nil
}

// jsonProblem says where JSON syntax broke: line and column.
func jsonProblem(data []byte, err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off := int(se.Offset)
		if off > len(data) {
			off = len(data)
		}
		line := 1 + bytes.Count(data[:off], []byte("\n"))
		col := off - bytes.LastIndexByte(data[:off], '\n') - 1
		return fmt.Sprintf("line %d, column %d: %v", line, col, se)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return "the file must hold one JSON object"
	}
	return err.Error()
}

var (
	compileOnce sync.Once
	compiled    *schemacheck.Checker
	compileErr  error
)

// schema is the format's schema, compiled at the first load (not at init:
// a command that loads no routine never pays for it).
func schema() (*schemacheck.Checker, error) {
	compileOnce.Do(func() { compiled, compileErr = schemacheck.Compile(Schema) })
	return compiled, compileErr
}

// validate checks a decoded document against the schema, reporting the
// first problem at its deepest place.
func validate(doc map[string]any) error {
	sch, err := schema()
	if err != nil {
		return fmt.Errorf("routine schema: %w", err) // a build error, not the file's
	}
	problems := sch.Problems(doc)
	if len(problems) == 0 {
		return nil
	}
	leaf := deepest(problems)
	return &LoadError{Where: place(doc, leaf.Path), Msg: leaf.Msg,
		Hint: "see routine/FORMAT.md for the fields of each step"}
}

// deepest is the problem with the longest location: the most specific
// place. Ties keep the first.
func deepest(ps []schemacheck.Problem) schemacheck.Problem {
	best := ps[0]
	for _, p := range ps[1:] {
		if len(p.Path) > len(best.Path) {
			best = p
		}
	}
	return best
}

// place writes a JSON location of doc as people read it, naming a step
// by its id when it has one, as [Validate] does: steps[3] (id "email").value.
func place(doc any, loc []string) string {
	var b strings.Builder
	node, parent := doc, ""
	for _, tok := range loc {
		if i, err := strconv.Atoi(tok); err == nil {
			b.WriteString("[" + tok + "]")
			node = index(node, i)
			if step, ok := node.(map[string]any); ok && stepLists[parent] {
				if id, _ := step["id"].(string); id != "" {
					fmt.Fprintf(&b, " (id %q)", id)
				}
			}
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
		m, _ := node.(map[string]any)
		node, parent = m[tok], tok
	}
	return b.String()
}

// stepLists are the fields that hold steps.
var stepLists = map[string]bool{"steps": true, "then": true, "else": true, "do": true, "fallback": true}

func index(node any, i int) any {
	if a, ok := node.([]any); ok && i >= 0 && i < len(a) {
		return a[i]
	}
	return nil
}

// varRef matches %name% and %row.field% in templates, URLs and texts.
var varRef = lazyre.New(`%([A-Za-z_][A-Za-z0-9_.-]*)%`)

// Validate checks what the schema cannot: every variable a step refers to is
// declared (and %row.…% only inside each), each names a list variable or
// an earlier extract, ids are unique, and no literal looks like a secret.
// Parse calls it; call it on a routine built in Go before replaying it.
func Validate(r *Routine) error {
	if r.Format != Format {
		return &LoadError{Where: "format", Msg: fmt.Sprintf("format %q, want %q", r.Format, Format)}
	}
	vars := map[string]Variable{}
	for i, v := range r.Variables {
		where := fmt.Sprintf("variables[%d]", i)
		if _, dup := vars[v.Name]; dup {
			return &LoadError{Where: where + ".name", Msg: fmt.Sprintf("variable %q is declared twice", v.Name)}
		}
		if v.Name == "row" {
			return &LoadError{Where: where + ".name", Msg: `"row" is reserved for the current item of each`}
		}
		vars[v.Name] = v
	}
	c := &checker{vars: vars, ids: map[string]string{}, extracts: map[string]bool{}}
	return c.steps(r.Steps, "steps", 0)
}

type checker struct {
	vars     map[string]Variable
	ids      map[string]string // step id → where it is
	extracts map[string]bool   // Into names of extracts seen so far
	inRecipe bool              // inside the steps of an each with a recipe
	// rowFields are the fields of the innermost each's rows when its
	// recipe says them (nil: an each over a variable or an extract, whose
	// rows are known only at replay).
	rowFields map[string]bool
}

// at names a step's place, with its id when it has one.
func at(where string, s *Step) string {
	if s.ID != "" {
		return fmt.Sprintf("%s (id %q)", where, s.ID)
	}
	return where
}

func (c *checker) steps(steps []Step, where string, eachDepth int) error {
	for i := range steps {
		s := &steps[i]
		w := fmt.Sprintf("%s[%d]", where, i)
		if s.ID != "" {
			if prev, dup := c.ids[s.ID]; dup {
				return &LoadError{Where: at(w, s) + ".id", Msg: fmt.Sprintf("id %q is also used by %s", s.ID, prev)}
			}
			c.ids[s.ID] = w
		}
		if err := c.step(s, w, eachDepth); err != nil {
			return err
		}
	}
	return nil
}

func (c *checker) step(s *Step, w string, eachDepth int) error {
	here := at(w, s)
	if err := c.text(s.URL, here+".url", eachDepth); err != nil {
		return err
	}
	if secret.LooksSecret(s.Key) {
		return &LoadError{Where: here + ".key", Msg: "the key looks like a secret (a credential, a card number or a random token); a routine never holds one",
			Hint: "type the secret into its field with a fill step whose value is {\"from\": \"secret\", \"slot\": NAME}"}
	}
	if s.Value != nil {
		if err := c.value(s.Value, here+".value", eachDepth); err != nil {
			return err
		}
	}
	for i, v := range s.Values {
		if err := c.value(v, fmt.Sprintf("%s.values[%d]", here, i), eachDepth); err != nil {
			return err
		}
	}
	if err := c.answers(s, here, eachDepth); err != nil {
		return err
	}
	if err := c.sheetFields(s, here, eachDepth); err != nil {
		return err
	}
	if err := c.doc(s, here, eachDepth); err != nil { // doc.go
		return err
	}
	if s.Check != nil {
		if err := c.text(s.Check.Text, here+".check.text", eachDepth); err != nil {
			return err
		}
		if err := c.text(s.Check.URL, here+".check.url", eachDepth); err != nil {
			return err
		}
	}
	if err := actFields(s, here); err != nil {
		return err
	}
	if s.Recipe != nil {
		if s.Kind != KindExtract && s.Kind != KindEach {
			return &LoadError{Where: here + ".recipe", Msg: fmt.Sprintf("a recipe reads a list for an extract or an each; this is a %s step", s.Kind)}
		}
		if err := s.Recipe.Check(); err != nil {
			return &LoadError{Where: here + ".recipe", Msg: err.Error(), Hint: "see routine/FORMAT.md, section Recipes"}
		}
	}
	if err := gridStep(s, here); err != nil {
		return err
	}
	if s.API != nil && s.Kind != KindAPI {
		return &LoadError{Where: here + ".api", Msg: fmt.Sprintf("an API recipe belongs to an api step; this is a %s step", s.Kind)}
	}
	if len(s.Fallback) > 0 && s.Kind != KindAPI {
		return &LoadError{Where: here + ".fallback", Msg: fmt.Sprintf("fallback steps belong to an api step; this is a %s step", s.Kind)}
	}
	if s.List != nil && s.Kind == KindAPI {
		if *s.List != (ListRead{Pages: s.List.Pages}) {
			return &LoadError{Where: here + ".list", Msg: "an api step's list says only how many pages it reads", Hint: `keep "pages" alone`}
		}
	} else if s.List != nil {
		if s.Kind != KindExtract || s.Recipe == nil {
			return &LoadError{Where: here + ".list", Msg: "list says how an extract with a recipe reads over pages; this step has none",
				Hint: `remove "list", or give the extract its "recipe"`}
		}
		if s.List.Until != "" && !untilDate(s.List.Until) {
			return &LoadError{Where: here + ".list.until", Msg: fmt.Sprintf("%q is not a date", s.List.Until), Hint: `write "2026-11-01", "1 Nov 2026" or "3 days ago"`}
		}
	}
	if s.Target != nil && s.Target.Place != "" && !c.inRecipe {
		return &LoadError{Where: here + ".target.place", Msg: "a place in a row belongs to a step inside an each with a recipe",
			Hint: `remove "place", or move the step into an each that has a "recipe"`}
	}
	switch s.Kind {
	case KindExtract:
		if s.Into != "" {
			c.extracts[s.Into] = true
		}
	case KindAPI:
		if s.API == nil {
			return &LoadError{Where: here + ".api", Msg: "an api step needs its recipe (waymark api learn writes one)"}
		}
		if err := s.API.Validate(); err != nil {
			return &LoadError{Where: here + ".api", Msg: err.Error(), Hint: calls.Hint(err)}
		}
		if s.Into != "" {
			c.extracts[s.Into] = true
		}
		return c.steps(s.Fallback, here+".fallback", eachDepth)
	case KindIf:
		if err := c.steps(s.Then, here+".then", eachDepth); err != nil {
			return err
		}
		return c.steps(s.Else, here+".else", eachDepth)
	case KindEach:
		if s.Recipe != nil {
			if s.Over != "" {
				return &LoadError{Where: here + ".over", Msg: "an each with a recipe reads its rows from the page; it goes over nothing else",
					Hint: `remove "over", or remove "recipe"`}
			}
			outer, outerFields := c.inRecipe, c.rowFields
			c.inRecipe, c.rowFields = true, map[string]bool{}
			for _, f := range s.Recipe.Fields {
				c.rowFields[f.Name] = true
			}
			err := c.steps(s.Do, here+".do", eachDepth+1)
			c.inRecipe, c.rowFields = outer, outerFields
			return err
		}
		// "products.items" is the items field of the extract "products".
		name, field, dotted := strings.Cut(s.Over, ".")
		v, declared := c.vars[name]
		switch {
		case dotted && (field == "" || !c.extracts[name]):
			return &LoadError{Where: here + ".over", Msg: fmt.Sprintf("%q: a dotted name reads a field of an earlier extract, and %q is not the \"into\" of one", s.Over, name),
				Hint: "write the extract's into, a dot, and the field that holds the list: \"products.items\""}
		case declared && !v.List:
			return &LoadError{Where: here + ".over", Msg: fmt.Sprintf("variable %q is not a list (declare it with \"list\": true)", s.Over)}
		case !declared && !c.extracts[name]:
			return &LoadError{Where: here + ".over", Msg: fmt.Sprintf("%q is neither a declared list variable nor the \"into\" of an earlier extract", s.Over),
				Hint: "declare it under \"variables\" with \"list\": true"}
		}
		outer, outerFields := c.inRecipe, c.rowFields
		c.inRecipe, c.rowFields = false, nil // a place and a row's fields are the innermost each's
		err := c.steps(s.Do, here+".do", eachDepth+1)
		c.inRecipe, c.rowFields = outer, outerFields
		return err
	}
	return nil
}

// Scroll directions and mouse buttons an act step may name.
var (
	directions = []string{"up", "down", "left", "right", "into-view"}
	buttons    = []string{"left", "right", "middle"}
)

// actFields checks the fields that say how a scroll scrolls and how a click
// clicks: valid values (the schema checks them too, but a routine built in
// Go meets only this), and only on the operations they belong to.
func actFields(s *Step, here string) error {
	what := s.Kind + " step"
	if s.Kind == KindAct {
		what = s.Op + " step"
	}
	if s.Direction != "" || s.Pixels != 0 {
		if s.Kind != KindAct || s.Op != calls.ActScroll {
			field := "direction"
			if s.Direction == "" {
				field = "pixels"
			}
			return &LoadError{Where: here + "." + field, Msg: fmt.Sprintf("%q is for scroll steps; this is a %s", field, what),
				Hint: `remove it, or make the step "op": "scroll"`}
		}
	}
	if s.Direction != "" && !slices.Contains(directions, s.Direction) {
		return &LoadError{Where: here + ".direction", Msg: fmt.Sprintf("unknown scroll direction %q: use %s", s.Direction, strings.Join(directions, ", "))}
	}
	if s.Pixels < 0 {
		return &LoadError{Where: here + ".pixels", Msg: fmt.Sprintf("pixels must be at least 1, got %d", s.Pixels),
			Hint: "leave it out for the driver's default"}
	}
	if s.Direction == "into-view" {
		if s.Target == nil {
			return &LoadError{Where: here + ".direction", Msg: "into-view needs a target: the element to bring into view",
				Hint: "add the element's target, or scroll the page up, down, left or right"}
		}
		if s.Pixels != 0 {
			return &LoadError{Where: here + ".pixels", Msg: "into-view brings the element into view and takes no pixels", Hint: "remove pixels"}
		}
	}
	click := s.Kind == KindAct && (s.Op == calls.ActClick || s.Op == calls.ActDblClick)
	if s.Button != "" {
		if !click {
			return &LoadError{Where: here + ".button", Msg: fmt.Sprintf(`"button" is for click and dblclick steps; this is a %s`, what)}
		}
		if !slices.Contains(buttons, s.Button) {
			return &LoadError{Where: here + ".button", Msg: fmt.Sprintf("unknown mouse button %q: use %s", s.Button, strings.Join(buttons, ", "))}
		}
	}
	if s.Approved != nil && (s.Kind != KindAct || (!click && s.Op != calls.ActPress)) {
		return &LoadError{Where: here + ".approved", Msg: fmt.Sprintf(`"approved" is for click, dblclick and press steps; this is a %s`, what),
			Hint: "remove it: only a press can be a submit a person approved"}
	}
	if s.Dismisses != nil {
		switch {
		case s.Kind != KindAct || s.Op != calls.ActClick || s.Target == nil:
			return &LoadError{Where: here + ".dismisses", Msg: fmt.Sprintf(`"dismisses" is for click steps with a target; this is a %s`, what),
				Hint: "remove it: a popup is closed by a click on its control"}
		case s.Approved != nil:
			return &LoadError{Where: here + ".dismisses", Msg: `a step that "dismisses" a popup cannot be an approved submit`,
				Hint: "remove one of them: a control that sends a form does not close a popup"}
		}
	}
	if s.Count != 0 {
		switch {
		case s.Kind == KindAct && s.Op == calls.ActDblClick:
			return &LoadError{Where: here + ".count", Msg: "a dblclick is always two clicks and takes no count",
				Hint: `remove count, or make the step "op": "click" with the count`}
		case !click:
			return &LoadError{Where: here + ".count", Msg: fmt.Sprintf(`"count" is for click steps; this is a %s`, what)}
		case s.Count < 1:
			return &LoadError{Where: here + ".count", Msg: fmt.Sprintf("count must be at least 1, got %d", s.Count),
				Hint: "leave it out for one click"}
		}
	}
	return nil
}

func (c *checker) value(v *Value, w string, eachDepth int) error {
	if v.Slot != "" {
		decl, ok := c.vars[v.Slot]
		if !ok {
			return &LoadError{Where: w + ".slot", Msg: fmt.Sprintf("variable %q is not declared", v.Slot),
				Hint: fmt.Sprintf("add {\"name\": %q} under \"variables\"", v.Slot)}
		}
		if v.From == "secret" && !decl.Secret {
			return &LoadError{Where: w + ".from", Msg: fmt.Sprintf("variable %q is read as a secret but not declared with \"secret\": true", v.Slot)}
		}
	}
	if v.Literal != "" && secret.LooksSecret(v.Literal) {
		return &LoadError{Where: w + ".literal", Msg: "the value looks like a secret (a credential, a card number or a random token); a routine never holds one",
			Hint: "declare a variable with \"secret\": true and refer to it with {\"from\": \"secret\", \"slot\": NAME}"}
	}
	return c.text(v.Template, w+".template", eachDepth)
}

// text checks the %name% references of a string and that it holds no
// secret.
func (c *checker) text(s, w string, eachDepth int) error {
	if s == "" {
		return nil
	}
	for _, m := range varRef.FindAllStringSubmatch(s, -1) {
		name := m[1]
		if name == "row" || strings.HasPrefix(name, "row.") {
			if eachDepth == 0 {
				return &LoadError{Where: w, Msg: fmt.Sprintf("%%%s%% is only defined inside the steps of an each", name)}
			}
			field, _, _ := strings.Cut(strings.TrimPrefix(name, "row."), ".")
			if c.rowFields != nil && name != "row" && !c.rowFields[field] {
				return &LoadError{Where: w, Msg: fmt.Sprintf("%%%s%%: the rows the recipe reads have no field %q (they have: %s)", name, field, strings.Join(slices.Sorted(maps.Keys(c.rowFields)), ", "))}
			}
			continue
		}
		if _, ok := c.vars[name]; !ok {
			return &LoadError{Where: w, Msg: fmt.Sprintf("%%%s%% refers to an undeclared variable", name),
				Hint: fmt.Sprintf("add {\"name\": %q} under \"variables\"", name)}
		}
	}
	// The words around the references, apart and joined: a token split by
	// a reference is still a token.
	if secret.LooksSecret(varRef.ReplaceAllString(s, " ")) || secret.LooksSecret(varRef.ReplaceAllString(s, "")) {
		return &LoadError{Where: w, Msg: "the text looks like it holds a secret (a credential, a card number or a random token); a routine never holds one",
			Hint: "put the secret in a variable with \"secret\": true and write %NAME% in its place"}
	}
	return nil
}

// readRegular reads a routine file, refusing what is not a regular file: a
// FIFO would block the read until something writes to it, a device may
// never end. It opens without blocking and checks the file it opened, so
// the file cannot change kind between the check and the read.
func readRegular(path string) ([]byte, error) {
	bad := func(format string, args ...any) error {
		return &calls.Error{Kind: calls.ErrBadInput, Msg: fmt.Sprintf("routine %s: ", path) + fmt.Sprintf(format, args...),
			Hint: "give the path of a routine file (a .json file written by waymark)"}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, bad("%v", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, bad("%v", err)
	}
	if !fi.Mode().IsRegular() {
		kind := "not a regular file"
		switch {
		case fi.IsDir():
			kind = "a folder"
		case fi.Mode()&os.ModeNamedPipe != 0:
			kind = "a named pipe (FIFO), not a file"
		case fi.Mode()&os.ModeDevice != 0:
			kind = "a device, not a file"
		case fi.Mode()&os.ModeSocket != 0:
			kind = "a socket, not a file"
		}
		return nil, bad("is %s", kind)
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, bad("%v", err)
	}
	return b, nil
}

// answers checks a form step's answers like any step's values.
func (c *checker) answers(s *Step, here string, eachDepth int) error {
	if s.Kind != KindForm {
		if len(s.Answers) > 0 {
			return &LoadError{Where: here + ".answers", Msg: fmt.Sprintf("answers are for form steps; this is a %s step", s.Kind), Hint: `remove them, or make the step "kind": "form"`}
		}
		return nil
	}
	if len(s.Answers) == 0 {
		return &LoadError{Where: here + ".answers", Msg: "a form step needs answers, by field key: {\"email\": {\"slot\": \"email\"}}", Hint: calls.Cmd("form") + " lists the page's field keys"}
	}
	keys := make([]string, 0, len(s.Answers))
	for k := range s.Answers {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := s.Answers[k]
		if v == nil {
			return &LoadError{Where: fmt.Sprintf("%s.answers[%q]", here, k), Msg: "an answer needs a value"}
		}
		if err := c.value(v, fmt.Sprintf("%s.answers[%q]", here, k), eachDepth); err != nil {
			return err
		}
	}
	return nil
}

// untilDate reports whether s reads as a date a list stops at.
func untilDate(s string) bool {
	_, ok := recipe.ParseDate(s, time.Now())
	return ok
}
