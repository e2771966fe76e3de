package pilot

import (
	"slices"
	"strconv"
	"strings"
	"sync"
)

// secretFields are the fields the pilot typed a secret (or a person's
// hand-over answer) into, by ref, with the secret's name. A page shows a
// field's value in its outline (` value="…"`), and masking by value misses
// a short one (a PIN, a 3-digit code: secret.MinKnown), so the pilot also
// masks the value of these fields by where they are, whatever it holds.
// Refs are not reused within a session, so a mark never lands on another
// element.
type secretFields struct {
	mu    sync.Mutex
	byRef map[string]string
}

// mark notes that ref holds the secret name.
func (f *secretFields) mark(ref, name string) {
	ref = strings.TrimPrefix(ref, "@")
	if ref == "" {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.byRef == nil {
		f.byRef = map[string]string{}
	}
	f.byRef[ref] = name
}

// markSecrets marks ref for each secret that template's %name%
// placeholders bring into it.
func (f *secretFields) markSecrets(ref, template string, vars Vars) {
	for _, name := range placeholders(template) {
		if _, ok := vars.Secrets[name]; ok {
			f.mark(ref, name)
		}
	}
}

// refs returns the marked fields as targets ("@e12"), sorted: what a
// screenshot must black out, since a picture of a plain text field shows
// what was typed into it.
func (f *secretFields) refs() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for ref := range f.byRef {
		out = append(out, "@"+ref)
	}
	slices.Sort(out)
	return out
}

// maskValues replaces the shown value of every marked field in an outline
// with «secret:name».
func (f *secretFields) maskValues(outline string) string {
	f.mu.Lock()
	marks := make(map[string]string, len(f.byRef))
	for k, v := range f.byRef {
		marks[k] = v
	}
	f.mu.Unlock()
	if len(marks) == 0 {
		return outline
	}
	lines := strings.SplitAfter(outline, "\n")
	for i, line := range lines {
		lines[i] = maskLineValue(line, marks)
	}
	return strings.Join(lines, "")
}

// maskLineValue masks ` value="…"` after `[ref=eN]` when eN is marked.
func maskLineValue(line string, marks map[string]string) string {
	const refOpen, valueOpen = "[ref=", "] value="
	i := strings.Index(line, refOpen)
	if i < 0 {
		return line
	}
	j := strings.Index(line[i:], valueOpen)
	if j < 0 {
		return line
	}
	ref := line[i+len(refOpen) : i+j]
	name, ok := marks[ref]
	if !ok {
		return line
	}
	start := i + j + len(valueOpen)
	quoted, err := strconv.QuotedPrefix(line[start:])
	if err != nil {
		// Not the outline's quoting: hide the rest of the line rather
		// than risk showing the value.
		return line[:start] + "«secret:" + name + "»\n"
	}
	return line[:start] + "«secret:" + name + "»" + line[start+len(quoted):]
}

// secretIn names the first secret template's placeholders bring in, or
// "": the driver then masks the field in every outline of the session,
// for the fronts that never see the value (calls.ActRequest.Secret).
func secretIn(template string, vars Vars) string {
	for _, name := range placeholders(template) {
		if _, ok := vars.Secrets[name]; ok {
			return name
		}
	}
	return ""
}
