package batch

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/secret"
)

// ReadRows reads input rows: one JSON object a line (JSON Lines; blank
// lines skipped), or, when csv is true, a CSV file whose first line names
// the fields. A CSV cell is a string; a cell like {"secret":"env:PW"} is a
// secret reference ([secret.ParseRef]).
func ReadRows(r io.Reader, csvFormat bool) ([]map[string]json.RawMessage, error) {
	if csvFormat {
		return readCSV(r)
	}
	var rows []map[string]json.RawMessage
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var row map[string]json.RawMessage
		if err := json.Unmarshal(b, &row); err != nil || row == nil {
			return nil, calls.Errorf(calls.ErrBadInput, `write one JSON object a line, like {"email": "ann@example.com"}`, "line %d is not a JSON object", line)
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read the rows: %w", err)
	}
	return rows, nil
}

func readCSV(r io.Reader) ([]map[string]json.RawMessage, error) {
	cr := csv.NewReader(r)
	head, err := cr.Read()
	if err != nil {
		return nil, calls.Errorf(calls.ErrBadInput, "the first line names the fields", "read the CSV header: %v", err)
	}
	var rows []map[string]json.RawMessage
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		if err != nil {
			return nil, calls.Errorf(calls.ErrBadInput, "", "read the CSV: %v", err)
		}
		row := make(map[string]json.RawMessage, len(head))
		for i, name := range head {
			if i >= len(rec) {
				break
			}
			cell := strings.TrimSpace(rec[i])
			if strings.HasPrefix(cell, "{") && json.Valid([]byte(cell)) {
				row[name] = json.RawMessage(cell)
				continue
			}
			b, _ := json.Marshal(rec[i])
			row[name] = b
		}
		rows = append(rows, row)
	}
}

// secretRef is a row field that names a secret instead of holding it.
type secretRef struct {
	Secret string `json:"secret"`
}

func refOf(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || raw[0] != '{' {
		return "", false
	}
	var ref secretRef
	if json.Unmarshal(raw, &ref) != nil || ref.Secret == "" {
		return "", false
	}
	return ref.Secret, true
}

// checkRow refuses a row the batch cannot run, before it reaches the
// stream: above all a secret variable given by value. vars are the
// batch's ([Spec.Variables]).
func checkRow(vars []routine.Variable, fields map[string]json.RawMessage) error {
	for _, v := range vars {
		raw, ok := fields[v.Name]
		if !ok {
			return calls.Errorf(calls.ErrBadInput, "give every row the routine's variables", "no value for %q", v.Name)
		}
		ref, isRef := refOf(raw)
		switch {
		case v.Secret && !isRef:
			return calls.Errorf(calls.ErrBadInput, fmt.Sprintf(`name the secret instead: {"%s": {"secret": "env:VAR"}} (or file:PATH, or prompt); its value never goes on the stream`, v.Name),
				"%q is a secret and the row holds its value", v.Name)
		case v.Secret:
			if _, err := secret.ParseRef(ref); err != nil {
				return calls.Errorf(calls.ErrBadInput, secret.RefHint, "%q names its secret badly: %v", v.Name, err)
			}
		case isRef:
			return calls.Errorf(calls.ErrBadInput, "declare it secret in the routine, or give its value", "%q is not a secret variable of the routine", v.Name)
		}
	}
	return nil
}

// rowKey reads the key field of a row.
func rowKey(fields map[string]json.RawMessage, name string) (string, error) {
	raw, ok := fields[name]
	if !ok {
		return "", fmt.Errorf("no field %q", name)
	}
	var s string
	if json.Unmarshal(raw, &s) == nil && s != "" {
		return s, nil
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String(), nil
	}
	return "", fmt.Errorf("the field %q is not a string or a number", name)
}

// rowValues turns a row into replay's variables, reading each secret from
// src where the worker runs. A secret that is not there is an error
// wrapping [secret.ErrUnset]: the row waits as needs_secret.
func rowValues(decl []routine.Variable, row Row, src Secrets) (map[string]string, map[string]secret.Value, error) {
	vars, secrets := map[string]string{}, map[string]secret.Value{}
	for _, v := range decl {
		raw := row.Fields[v.Name]
		if !v.Secret {
			var s string
			if json.Unmarshal(raw, &s) == nil {
				vars[v.Name] = s
			} else {
				vars[v.Name] = string(raw)
			}
			continue
		}
		s, _ := refOf(raw)
		ref, err := secret.ParseRef(s)
		if err != nil {
			return nil, nil, calls.Errorf(calls.ErrBadInput, secret.RefHint, "the secret %q: %v", v.Name, err)
		}
		val, err := src.Resolve(row.Batch, ref, v.Name)
		if err != nil {
			return nil, nil, fmt.Errorf("the secret %q: %w", v.Name, err)
		}
		secrets[v.Name] = val
	}
	return vars, secrets, nil
}

func sortResults(rs []Result) {
	slices.SortFunc(rs, func(a, b Result) int { return a.N - b.N })
}

// Step names a routine's top-level step for people: its id, or steps[i].
func stepName(r *routine.Routine, i int) string {
	if i >= 0 && i < len(r.Steps) {
		if r.Steps[i].ID != "" {
			return r.Steps[i].ID
		}
		return "steps[" + strconv.Itoa(i) + "]"
	}
	return "after steps[" + strconv.Itoa(len(r.Steps)-1) + "]"
}
