package testplan

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// spec is the shape of one kind of step: its words and its arguments.
type spec struct {
	verb, kind string
	args       []string // names, in order; the last one may be optional when opt is set
	optLast    bool     // the last argument may be left out
	opts       []string // extra keys the map form takes
}

var specs = []spec{
	{verb: "open", args: []string{"url"}, opts: []string{"timeout"}},
	{verb: "click", args: []string{"target"}, opts: []string{"timeout"}},
	{verb: "dblclick", args: []string{"target"}, opts: []string{"timeout"}},
	{verb: "hover", args: []string{"target"}, opts: []string{"timeout"}},
	{verb: "check", args: []string{"target"}, opts: []string{"timeout"}},
	{verb: "uncheck", args: []string{"target"}, opts: []string{"timeout"}},
	{verb: "fill", args: []string{"target", "text"}, opts: []string{"timeout"}},
	{verb: "type", args: []string{"target", "text"}, opts: []string{"timeout"}},
	{verb: "select", args: []string{"target", "value"}, opts: []string{"timeout"}},
	{verb: "press", args: []string{"key"}},
	{verb: "wait", kind: "text", args: []string{"text"}, opts: []string{"timeout"}},
	{verb: "wait", kind: "gone", args: []string{"text"}, opts: []string{"timeout"}},
	{verb: "wait", kind: "url", args: []string{"url"}, opts: []string{"timeout"}},
	{verb: "wait", kind: "selector", args: []string{"selector"}, opts: []string{"timeout"}},
	{verb: "wait", args: []string{"time"}},
	{verb: "expect", kind: "text", args: []string{"text"}, opts: []string{"timeout"}},
	{verb: "expect", kind: "title", args: []string{"title"}, opts: []string{"timeout"}},
	{verb: "expect", kind: "url", args: []string{"url"}, opts: []string{"timeout"}},
	{verb: "expect", kind: "value", args: []string{"target", "value"}, opts: []string{"timeout"}},
	{verb: "expect", kind: "visible", args: []string{"target"}, opts: []string{"timeout"}},
	{verb: "expect", kind: "count", args: []string{"locator", "count"}, opts: []string{"timeout"}},
	{verb: "screenshot", args: []string{"name"}, optLast: true, opts: []string{"full"}},
	{verb: "act", args: []string{"instruction"}, opts: []string{"allow_submit", "timeout"}},
	{verb: "extract", args: []string{"instruction", "schema"}, opts: []string{"timeout"}},
}

// usage is how a spec is written, for messages: "fill TARGET TEXT".
func (s spec) usage() string {
	parts := []string{s.verb}
	if s.kind != "" {
		parts = append(parts, s.kind)
	}
	for i, a := range s.args {
		a = strings.ToUpper(a)
		if s.optLast && i == len(s.args)-1 {
			a = "[" + a + "]"
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, " ")
}

// verbs lists the words a step may start with, for messages.
func verbs() string {
	var out []string
	for _, s := range specs {
		if !slices.Contains(out, s.verb) {
			out = append(out, s.verb)
		}
	}
	return strings.Join(out, ", ")
}

func kindsOf(verb string) []string {
	var out []string
	for _, s := range specs {
		if s.verb == verb && s.kind != "" {
			out = append(out, s.kind)
		}
	}
	return out
}

// lookup finds the spec of words: one word ("click") or two ("expect text").
func lookup(words []string) (spec, int, error) {
	if len(words) == 0 || words[0] == "" {
		return spec{}, 0, errors.New("empty step; write one such as: click text=Continue")
	}
	verb := strings.ToLower(words[0])
	kinds := kindsOf(verb)
	if len(words) > 1 && slices.Contains(kinds, strings.ToLower(words[1])) {
		kind := strings.ToLower(words[1])
		for _, s := range specs {
			if s.verb == verb && s.kind == kind {
				return s, 2, nil
			}
		}
	}
	for _, s := range specs {
		if s.verb == verb && s.kind == "" {
			return s, 1, nil
		}
	}
	if len(kinds) > 0 {
		return spec{}, 0, fmt.Errorf("%s what? write %s %s", verb, verb, strings.Join(kinds, "|"))
	}
	return spec{}, 0, fmt.Errorf("unknown step %q; steps start with one of: %s", words[0], verbs())
}

// parseStepNode reads one step: a string ("click text=Go") or a mapping
// of one key, the step's words, to its arguments (a string, a list, or a
// mapping of argument names).
func parseStepNode(n *yaml.Node) (*Step, error) {
	switch n.Kind {
	case yaml.ScalarNode:
		return parseStepString(n.Value, n.Line)
	case yaml.MappingNode:
		if len(n.Content) != 2 {
			return nil, errors.New("a step written as a mapping has one key, its words, e.g. fill: {target: label=Email, text: ann@example.com}")
		}
		return parseStepMap(n.Content[0], n.Content[1])
	}
	return nil, fmt.Errorf("a step is a string such as \"click text=Continue\" or a mapping such as fill: {target: …, text: …}, not a %s", kindName(n))
}

// parseStepString reads the string form. Arguments are separated by
// spaces; an argument that starts with a double quote runs to the closing
// quote (with backslash escapes), one that starts with a single quote to
// the next single quote; a quoted part inside an argument
// (role=button[name="Add to cart"]) is kept as written, spaces and all.
// The last argument takes the rest of the line, so "expect text Cart (1)"
// needs no quotes.
func parseStepString(s string, line int) (*Step, error) {
	toks, err := tokenize(s)
	if err != nil {
		return nil, err
	}
	words := make([]string, 0, 2)
	for i := 0; i < len(toks) && i < 2; i++ {
		words = append(words, toks[i].text)
	}
	sp, used, err := lookup(words)
	if err != nil {
		return nil, err
	}
	rest := toks[used:]
	args := make([]string, 0, len(sp.args))
	for i := range sp.args {
		if i >= len(rest) {
			break
		}
		if i == len(sp.args)-1 && len(rest) > len(sp.args) {
			// The last argument takes the rest of the line as written.
			args = append(args, strings.TrimSpace(s[rest[i].start:]))
			break
		}
		args = append(args, rest[i].text)
	}
	st := &Step{Line: line, Text: strings.TrimSpace(s), Verb: sp.verb, Kind: sp.kind, Args: args}
	// A first argument written bare with more after it: the line split
	// at its end, maybe inside a name (split.go).
	st.bareTarget = len(sp.args) > 1 && len(rest) > 1 && !strings.ContainsAny(s[rest[0].start:rest[0].start+1], `"'`)
	return st, check(sp, st)
}

// parseStepMap reads the mapping form.
func parseStepMap(k, v *yaml.Node) (*Step, error) {
	if k.Kind != yaml.ScalarNode {
		return nil, errors.New("a step's key must be its words, such as fill or expect text")
	}
	words := strings.Fields(k.Value)
	sp, used, err := lookup(words)
	if err != nil {
		return nil, err
	}
	if used < len(words) {
		// "- fill label=Email: x" is YAML for a mapping; say so.
		return nil, fmt.Errorf("%q was read as a mapping because of its \": \"; quote the whole step, or write it as %s: {…}", k.Value+": "+v.Value, sp.verb)
	}
	st := &Step{Line: k.Line, Verb: sp.verb, Kind: sp.kind}
	switch v.Kind {
	case yaml.ScalarNode:
		switch {
		case v.Tag == "!!null":
		case len(sp.args) == 1:
			st.Args = []string{v.Value}
		default:
			// Several arguments in one string: read them as the string form does.
			inner, err := parseStepString(k.Value+" "+v.Value, k.Line)
			if err != nil {
				return nil, err
			}
			st.Args, st.bareTarget = inner.Args, inner.bareTarget
		}
	case yaml.SequenceNode:
		for _, a := range v.Content {
			if a.Kind != yaml.ScalarNode {
				return nil, fmt.Errorf("%s: each argument in the list must be a plain value", sp.usage())
			}
			st.Args = append(st.Args, a.Value)
		}
	case yaml.MappingNode:
		named := map[string]string{}
		for i := 0; i+1 < len(v.Content); i += 2 {
			name, val := v.Content[i].Value, v.Content[i+1]
			if val.Kind != yaml.ScalarNode {
				return nil, fmt.Errorf("%s: %s must be a plain value", sp.verb, name)
			}
			switch {
			case slices.Contains(sp.args, name):
				named[name] = val.Value
			case name == "timeout" && slices.Contains(sp.opts, name):
				d, err := parseDuration(val)
				if err != nil {
					return nil, fmt.Errorf("timeout: %v", err)
				}
				st.Timeout = d
			case (name == "full" || name == "allow_submit") && slices.Contains(sp.opts, name):
				b, err := strconv.ParseBool(val.Value)
				if err != nil {
					return nil, fmt.Errorf("%s: write true or false, not %q", name, val.Value)
				}
				st.Full = st.Full || (name == "full" && b)
				st.AllowSubmit = st.AllowSubmit || (name == "allow_submit" && b)
			default:
				return nil, fmt.Errorf("%s takes %s; %q is not one of them", sp.verb, strings.Join(append(slices.Clone(sp.args), sp.opts...), ", "), name)
			}
		}
		for _, a := range sp.args {
			val, ok := named[a]
			if !ok {
				break // check reports what is missing
			}
			st.Args = append(st.Args, val)
		}
		if len(st.Args) < len(named) {
			return nil, fmt.Errorf("%s needs %s before the arguments after it", sp.usage(), sp.args[len(st.Args)])
		}
	default:
		return nil, fmt.Errorf("%s: give its arguments as a string, a list or a mapping", sp.usage())
	}
	st.Text = render(sp, st)
	return st, check(sp, st)
}

// render writes a mapping-form step as one line for the report.
func render(sp spec, st *Step) string {
	return Line(sp.verb, sp.kind, st.Args...)
}

// Line writes a step as plan text: its verb (and kind), then each
// argument, quoted when the plan's reader would split or change it (a
// space, a quote, nothing at all), so that the line pasted into a plan
// reads back as the same step. Every step echoed back as plan text (a
// mapping-form step in the report, a trace's calls) is written here: a
// trace's `fill "label=Full name" "Ann Lee"` written bare would read back
// as label=Full typing "name Ann Lee".
func Line(verb, kind string, args ...string) string {
	parts := []string{verb}
	if kind != "" {
		parts = append(parts, kind)
	}
	for _, a := range args {
		parts = append(parts, quoteArg(a))
	}
	return strings.Join(parts, " ")
}

// quoteArg is a as one argument of a plan line: as it is when the reader
// takes it back unchanged as one argument (role=button[name="Add to
// cart"] keeps its inner quotes), else double-quoted.
func quoteArg(a string) string {
	if toks, err := tokenize(a); err == nil && len(toks) == 1 && toks[0].text == a && a[0] != '"' && a[0] != '\'' {
		return a
	}
	return strconv.Quote(a)
}

// check validates a step's arguments.
func check(sp spec, st *Step) error {
	need := len(sp.args)
	if sp.optLast {
		need--
	}
	if len(st.Args) < need {
		return fmt.Errorf("%s needs %s; write %s", sp.verb+strings.TrimSuffix(" "+sp.kind, " "), strings.ToUpper(sp.args[len(st.Args)]), sp.usage())
	}
	for i, a := range st.Args {
		if strings.TrimSpace(a) == "" && !(sp.verb == "fill" && i == 1) {
			return fmt.Errorf("%s: %s is empty", sp.usage(), strings.ToUpper(sp.args[i]))
		}
		if err := checkRefs(a); err != nil {
			return err
		}
	}
	switch {
	case sp.verb == "wait" && sp.kind == "":
		ms, err := parseWaitTime(st.Args[0])
		if err != nil {
			return err
		}
		st.Args[0] = strconv.Itoa(ms)
	case sp.verb == "expect" && sp.kind == "count":
		n, err := strconv.Atoi(strings.TrimSpace(st.Args[1]))
		if err != nil || n < 0 {
			return fmt.Errorf("expect count: %q is not a count; write %s", st.Args[1], sp.usage())
		}
	case sp.verb == "screenshot":
		if len(st.Args) == 0 {
			st.Args = []string{"screenshot"}
		}
	case sp.verb == "extract":
		if !strings.HasSuffix(strings.ToLower(st.Args[1]), ".json") {
			return fmt.Errorf("extract: the schema %q should be a .json file; write %s", st.Args[1], sp.usage())
		}
	}
	return nil
}

// checkRefs refuses a "${" that is not a well-formed ${NAME}.
func checkRefs(s string) error {
	rest := envRef.ReplaceAllString(s, "")
	if strings.Contains(rest, "${") {
		return fmt.Errorf("%q: write an environment variable as ${NAME} (letters, digits and _)", s)
	}
	return nil
}

// parseWaitTime reads milliseconds ("500") or a Go duration ("2s").
func parseWaitTime(s string) (int, error) {
	s = strings.TrimSpace(s)
	if ms, err := strconv.Atoi(s); err == nil && ms >= 0 {
		return ms, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("wait %q: give milliseconds (500), a duration (2s), or text|gone|url|selector VALUE", s)
	}
	return int(d / time.Millisecond), nil
}

// token is one argument of a string step and where it starts.
type token struct {
	text  string
	start int
}

func tokenize(s string) ([]token, error) {
	var out []token
	i := 0
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i >= len(s) {
			return out, nil
		}
		start := i
		switch s[i] {
		case '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) {
				return nil, fmt.Errorf("unclosed \" in %s", s)
			}
			text, err := strconv.Unquote(s[i : j+1])
			if err != nil {
				return nil, fmt.Errorf("bad quoted argument %s: %v", s[i:j+1], err)
			}
			out = append(out, token{text, start})
			i = j + 1
		case '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unclosed ' in %s", s)
			}
			out = append(out, token{s[i+1 : i+1+j], start})
			i += j + 2
		default:
			// A bare argument may hold a quoted part, kept as written:
			// role=button[name="Add to cart"] is one argument.
			j := i
			for j < len(s) && s[j] != ' ' && s[j] != '\t' {
				if s[j] == '"' {
					for j++; j < len(s) && s[j] != '"'; j++ {
						if s[j] == '\\' {
							j++
						}
					}
				}
				j++
			}
			j = min(j, len(s))
			out = append(out, token{s[i:j], start})
			i = j
		}
	}
}
