package testplan

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A checker of the XSD subset testdata/junit-10.xsd is written in, read
// from the schema itself, so that no XSD library joins the module:
// top-level elements (with a complex type inline, a named complex type,
// or xs:string), their attributes (required or not, xs:string or a
// pattern-restricted simple type), the elements each may hold (order is
// not checked: the schema's content models are unbounded choices, and
// testsuites holds only testsuite), and whether text may appear
// (mixed="true" or a simple type). When xmllint is installed, the file is
// also checked with it against the same schema.

// xnode is an XML element read generically.
type xnode struct {
	name  string
	attrs map[string]string
	kids  []*xnode
	text  string
}

func readTree(r io.Reader) (*xnode, error) {
	dec := xml.NewDecoder(r)
	var stack []*xnode
	var root *xnode
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return root, nil
		}
		if err != nil {
			return nil, err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			n := &xnode{name: tok.Name.Local, attrs: map[string]string{}}
			for _, a := range tok.Attr {
				if a.Name.Space == "xmlns" || a.Name.Local == "xmlns" {
					continue
				}
				n.attrs[a.Name.Local] = a.Value
			}
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				p.kids = append(p.kids, n)
			} else {
				root = n
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text += string(tok)
			}
		}
	}
}

type attrRule struct {
	required bool
	pattern  *regexp.Regexp // nil: any string
}

type elemRule struct {
	attrs    map[string]attrRule
	children map[string]bool
	text     bool // mixed content or a simple type
}

type xsdSchema struct{ elems map[string]*elemRule }

// loadXSD reads the subset described above; anything outside it fails.
func loadXSD(t *testing.T, path string) *xsdSchema {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	root, err := readTree(f)
	if err != nil {
		t.Fatal(err)
	}
	simple := map[string]*regexp.Regexp{}
	complexTypes := map[string]*xnode{}
	for _, k := range root.kids {
		switch k.name {
		case "simpleType":
			pat := ""
			walk(k, func(n *xnode) {
				if n.name == "pattern" {
					pat = n.attrs["value"]
				}
			})
			simple[k.attrs["name"]] = regexp.MustCompile("^(?:" + pat + ")$")
		case "complexType":
			complexTypes[k.attrs["name"]] = k
		}
	}
	rule := func(ct *xnode) *elemRule {
		r := &elemRule{attrs: map[string]attrRule{}, children: map[string]bool{}, text: ct.attrs["mixed"] == "true"}
		walk(ct, func(n *xnode) {
			switch n.name {
			case "attribute":
				ar := attrRule{required: n.attrs["use"] == "required"}
				if typ := n.attrs["type"]; typ != "xs:string" {
					if ar.pattern = simple[typ]; ar.pattern == nil {
						t.Fatalf("xsd: attribute type %q is outside the subset", typ)
					}
				}
				r.attrs[n.attrs["name"]] = ar
			case "element":
				name := n.attrs["ref"]
				if name == "" {
					name = n.attrs["name"]
				}
				r.children[name] = true
			}
		})
		return r
	}
	s := &xsdSchema{elems: map[string]*elemRule{}}
	for _, k := range root.kids {
		if k.name != "element" {
			continue
		}
		name, typ := k.attrs["name"], k.attrs["type"]
		switch {
		case typ == "xs:string":
			s.elems[name] = &elemRule{text: true, attrs: map[string]attrRule{}, children: map[string]bool{}}
		case typ != "":
			ct := complexTypes[typ]
			if ct == nil {
				t.Fatalf("xsd: element type %q is outside the subset", typ)
			}
			s.elems[name] = rule(ct)
		case len(k.kids) == 1 && k.kids[0].name == "complexType":
			s.elems[name] = rule(k.kids[0])
		default:
			t.Fatalf("xsd: element %q is outside the subset", name)
		}
	}
	return s
}

// walk visits n's descendants, not entering nested complex types'
// element declarations (those are checked where they are declared).
func walk(n *xnode, f func(*xnode)) {
	for _, k := range n.kids {
		f(k)
		if k.name != "element" {
			walk(k, f)
		}
	}
}

// validate returns what in doc breaks the schema, one line a problem.
func (s *xsdSchema) validate(doc *xnode) []string {
	var out []string
	var check func(n *xnode, path string)
	check = func(n *xnode, path string) {
		path += "/" + n.name
		r := s.elems[n.name]
		if r == nil {
			out = append(out, fmt.Sprintf("%s: element %q is not in the schema", path, n.name))
			return
		}
		for name, v := range n.attrs {
			ar, ok := r.attrs[name]
			switch {
			case !ok:
				out = append(out, fmt.Sprintf("%s: attribute %q is not allowed", path, name))
			case ar.pattern != nil && !ar.pattern.MatchString(v):
				out = append(out, fmt.Sprintf("%s: attribute %q=%q does not fit its type", path, name, v))
			}
		}
		for name, ar := range r.attrs {
			if _, ok := n.attrs[name]; ar.required && !ok {
				out = append(out, fmt.Sprintf("%s: attribute %q is required", path, name))
			}
		}
		if !r.text && strings.TrimSpace(n.text) != "" {
			out = append(out, fmt.Sprintf("%s: text is not allowed", path))
		}
		for _, k := range n.kids {
			if !r.children[k.name] {
				out = append(out, fmt.Sprintf("%s: element %q is not allowed here", path, k.name))
				continue
			}
			check(k, path)
		}
	}
	check(doc, "")
	return out
}

// checkJUnit fails t when the JUnit XML at path breaks the strict schema.
func checkJUnit(t *testing.T, path string) {
	t.Helper()
	xsd := filepath.Join("testdata", "junit-10.xsd")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := readTree(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("junit.xml does not parse: %v", err)
	}
	if probs := loadXSD(t, xsd).validate(doc); len(probs) > 0 {
		t.Errorf("junit.xml breaks %s:\n%s\n%s", xsd, strings.Join(probs, "\n"), data)
	}
	if xmllint, err := exec.LookPath("xmllint"); err == nil {
		if out, err := exec.Command(xmllint, "--noout", "--schema", xsd, path).CombinedOutput(); err != nil {
			t.Errorf("xmllint: %v\n%s", err, out)
		}
	}
}

// TestXSDChecker: the checker refuses what the schema refuses (the
// skipped attribute on testsuites that strict consumers reject, a
// missing required attribute, an unknown element, a malformed time).
func TestXSDChecker(t *testing.T) {
	s := loadXSD(t, filepath.Join("testdata", "junit-10.xsd"))
	for _, tc := range []struct {
		doc  string
		want string
	}{
		{`<testsuites tests="1" time="1.5"><testsuite name="a" tests="1" failures="0" errors="0"><testcase name="x"><failure message="m">why</failure><system-out>o</system-out></testcase></testsuite></testsuites>`, ""},
		{`<testsuites skipped="0"><testsuite name="a" tests="1" failures="0" errors="0"/></testsuites>`, `attribute "skipped" is not allowed`},
		{`<testsuites><testsuite name="a" tests="1" failures="0"/></testsuites>`, `attribute "errors" is required`},
		{`<testsuites><testsuite name="a" tests="1" failures="0" errors="0"><testcase name="x" file="a.yaml"/></testsuite></testsuites>`, `attribute "file" is not allowed`},
		{`<testsuites><testsuite name="a" tests="1" failures="0" errors="0"><bogus/></testsuite></testsuites>`, `element "bogus" is not allowed here`},
		{`<testsuites time="1s"/>`, `does not fit its type`},
		{`<testsuites>text</testsuites>`, `text is not allowed`},
	} {
		doc, err := readTree(strings.NewReader(tc.doc))
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(s.validate(doc), "\n")
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%s:\ngot  %q\nwant %q", tc.doc, got, tc.want)
		}
	}
}
