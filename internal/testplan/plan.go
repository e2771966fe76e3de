package testplan

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/waymark-dev/waymark/internal/lazyre"
)

// Format is the version string a plan may carry in its format key.
const Format = "waymark.plan/1"

// DefaultExpectTimeout is how long an expect step keeps checking when
// neither the step nor the plan says.
const DefaultExpectTimeout = 5 * time.Second

// Plan is a parsed test plan.
type Plan struct {
	Name    string // the plan's name; the file's base name when the plan has none
	File    string // where it was read from, for messages; may be empty
	BaseURL string // what relative opens join; may be empty
	// Secrets names the environment variables whose values are secrets:
	// masked in every evidence file and never shown to a model.
	Secrets []string
	// ExpectTimeout is how long an expect step keeps checking; zero means
	// [DefaultExpectTimeout].
	ExpectTimeout time.Duration
	Scenarios     []Scenario
}

// Scenario is one list of steps, run in its own session.
type Scenario struct {
	Name  string
	Line  int
	Steps []Step
}

// Step is one step of a scenario, in the CLI's words.
type Step struct {
	Line int    // the step's line in the plan
	Text string // the step as written (with ${NAME} references, never their values)
	Verb string // open, click, fill, …, wait, expect, screenshot, act, extract
	Kind string // wait: text, gone, url, selector or "" (a time); expect: text, url, value, visible, count
	// Args are the step's arguments in the order of its spec ("fill
	// TARGET TEXT": target, text), with ${NAME} references unexpanded.
	Args []string
	// Timeout bounds the step (an expect's retries, a wait, an action's
	// wait for its element); zero means the default.
	Timeout     time.Duration
	Full        bool // screenshot: the whole page
	AllowSubmit bool // act: let the step send a form, pay, delete or confirm

	// bareTarget: the string form's first argument was written unquoted
	// with more after it, so the line split where it ended (split.go).
	bareTarget bool
}

// PlanError is a plan that cannot be run as written. It names the file,
// the line and, when it is inside one, the scenario and the step.
type PlanError struct {
	File     string
	Line     int
	Scenario string // may be empty
	Step     int    // 1-based; zero when the error is not in a step
	Msg      string
}

func (e *PlanError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteString(":")
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, "%d:", e.Line)
	}
	if b.Len() > 0 {
		b.WriteString(" ")
	}
	if e.Scenario != "" {
		fmt.Fprintf(&b, "scenario %q", e.Scenario)
		if e.Step > 0 {
			fmt.Fprintf(&b, ", step %d", e.Step)
		}
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Load reads and parses the plan at path.
func Load(path string) (*Plan, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &PlanError{File: path, Msg: fmt.Sprintf("cannot read the plan: %v", err)}
	}
	return Parse(data, path)
}

var (
	envRef   = lazyre.New(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`) // a ${NAME} reference
	envName  = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*$`)
	yamlLine = lazyre.New(`^line (\d+): (.*)$`)
)

// Parse reads a plan from YAML; file names it in errors.
func Parse(data []byte, file string) (*Plan, error) {
	fail := func(line int, format string, args ...any) error {
		return &PlanError{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, yamlError(file, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, fail(1, "the plan is empty; it needs name: and scenarios:")
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, fail(root.Line, "a plan is a mapping with name:, base_url:, secrets: and scenarios:, not a %s", kindName(root))
	}
	p := &Plan{File: file}
	var scenarios *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "format":
			if v.Value != Format {
				return nil, fail(v.Line, "format %q is not known to this waymark; it reads %q", v.Value, Format)
			}
		case "name":
			if v.Kind != yaml.ScalarNode {
				return nil, fail(v.Line, "name: must be text")
			}
			p.Name = v.Value
		case "base_url":
			if v.Kind != yaml.ScalarNode {
				return nil, fail(v.Line, "base_url: must be a URL")
			}
			if u, err := url.Parse(v.Value); err != nil || u.Scheme == "" || u.Host == "" {
				return nil, fail(v.Line, "base_url %q is not an absolute URL like http://127.0.0.1:8080", v.Value)
			}
			p.BaseURL = v.Value
		case "secrets":
			if v.Kind != yaml.SequenceNode {
				return nil, fail(v.Line, "secrets: is a list of environment variable names, like [DEMO_PASSWORD]")
			}
			for _, s := range v.Content {
				if s.Kind != yaml.ScalarNode || !envName.MatchString(s.Value) {
					return nil, fail(s.Line, "secrets: %q is not an environment variable name (write DEMO_PASSWORD, not ${DEMO_PASSWORD} or its value)", s.Value)
				}
				p.Secrets = append(p.Secrets, s.Value)
			}
		case "expect_timeout":
			d, err := parseDuration(v)
			if err != nil {
				return nil, fail(v.Line, "expect_timeout: %v", err)
			}
			p.ExpectTimeout = d
		case "scenarios":
			scenarios = v
		default:
			return nil, fail(k.Line, "unknown key %q; a plan has format, name, base_url, secrets, expect_timeout and scenarios", k.Value)
		}
	}
	if scenarios == nil {
		return nil, fail(root.Line, "the plan has no scenarios: list")
	}
	if scenarios.Kind != yaml.SequenceNode || len(scenarios.Content) == 0 {
		return nil, fail(scenarios.Line, "scenarios: is a list of {name, steps}, and it must not be empty")
	}
	seen := map[string]int{}
	for i, sn := range scenarios.Content {
		sc, err := parseScenario(file, i, sn)
		if err != nil {
			return nil, err
		}
		if prev, ok := seen[sc.Name]; ok {
			return nil, fail(sc.Line, "scenario %q is named twice (first on line %d); give each a name of its own", sc.Name, prev)
		}
		seen[sc.Name] = sc.Line
		p.Scenarios = append(p.Scenarios, *sc)
	}
	if p.Name == "" {
		p.Name = strings.TrimSuffix(strings.TrimSuffix(baseName(file), ".yaml"), ".yml")
	}
	if p.Name == "" {
		p.Name = "plan"
	}
	return p, nil
}

func parseScenario(file string, i int, n *yaml.Node) (*Scenario, error) {
	if n.Kind != yaml.MappingNode {
		return nil, &PlanError{File: file, Line: n.Line, Msg: fmt.Sprintf("scenario %d: write it as {name: …, steps: [...]}, not a %s", i+1, kindName(n))}
	}
	sc := &Scenario{Line: n.Line}
	var steps *yaml.Node
	for j := 0; j+1 < len(n.Content); j += 2 {
		k, v := n.Content[j], n.Content[j+1]
		switch k.Value {
		case "name":
			sc.Name = strings.TrimSpace(v.Value)
		case "steps":
			steps = v
		default:
			return nil, &PlanError{File: file, Line: k.Line, Msg: fmt.Sprintf("scenario %d: unknown key %q; a scenario has name and steps", i+1, k.Value)}
		}
	}
	if sc.Name == "" {
		return nil, &PlanError{File: file, Line: n.Line, Msg: fmt.Sprintf("scenario %d has no name:", i+1)}
	}
	if steps == nil || steps.Kind != yaml.SequenceNode || len(steps.Content) == 0 {
		return nil, &PlanError{File: file, Line: n.Line, Scenario: sc.Name, Msg: "steps: must be a list with at least one step"}
	}
	for j, sn := range steps.Content {
		st, err := parseStepNode(sn)
		if err != nil {
			return nil, &PlanError{File: file, Line: sn.Line, Scenario: sc.Name, Step: j + 1, Msg: err.Error()}
		}
		sc.Steps = append(sc.Steps, *st)
	}
	return sc, nil
}

// yamlError turns a YAML syntax error into a PlanError with its line.
func yamlError(file string, err error) error {
	var te *yaml.TypeError
	msg := err.Error()
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	line := 0
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		fmt.Sscan(m[1], &line)
		msg = m[2]
	}
	return &PlanError{File: file, Line: line, Msg: "not valid YAML: " + msg}
}

func parseDuration(v *yaml.Node) (time.Duration, error) {
	if v.Kind != yaml.ScalarNode {
		return 0, errors.New("give a duration such as 5s or 500ms")
	}
	d, err := time.ParseDuration(v.Value)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%q is not a duration such as 5s or 500ms", v.Value)
	}
	return d, nil
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "list"
	case yaml.MappingNode:
		return "mapping"
	case yaml.ScalarNode:
		return "plain value"
	}
	return "YAML node"
}

func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}
