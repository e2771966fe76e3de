package sheetcell

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/secret"
	"github.com/waymark-dev/waymark/sheet"
)

// Cell is one cell a fill writes.
type Cell struct {
	Ref    sheet.Ref
	Value  string
	Secret bool
}

// Check checks a fill's cells, in reading order.
func Check(req calls.SheetFillRequest) ([]Cell, error) {
	var out []Cell
	seen := map[sheet.Ref]string{}
	add := func(k, v string, isSecret bool) error {
		r, err := ParseCell(k)
		if err != nil {
			return err
		}
		if prev, dup := seen[r]; dup {
			return calls.Errorf(calls.ErrBadInput, "give each cell one value", "%s is given twice (as %s and %s)", r, prev, k)
		}
		seen[r] = k
		if err := Typable(k, v); err != nil {
			return err
		}
		if f := SendingFormula(v); f != "" && isSecret {
			// The person approves a secret masked: a send must be seen.
			return calls.Errorf(calls.ErrBadInput, "give the formula as a cell's value, which the approval shows",
				"the secret for %s is a formula that makes the app fetch a URL (%s), and a secret is approved unseen", k, f)
		}
		out = append(out, Cell{Ref: r, Value: v, Secret: isSecret})
		return nil
	}
	for _, k := range slices.Sorted(maps.Keys(req.Cells)) {
		if err := add(k, req.Cells[k], false); err != nil {
			return nil, err
		}
	}
	for _, k := range slices.Sorted(maps.Keys(req.Secrets)) {
		if err := add(k, req.Secrets[k], true); err != nil {
			return nil, err
		}
	}
	switch {
	case len(out) == 0:
		return nil, calls.Errorf(calls.ErrBadInput, `give cells by reference: {"B2": "12", "C2": "paid"}`, "no cells to fill")
	case len(out) > calls.SheetFillMax:
		return nil, calls.Errorf(calls.ErrBadInput, fmt.Sprintf("fill at most %d cells at once: split the file", calls.SheetFillMax), "%d cells to fill", len(out))
	}
	slices.SortFunc(out, func(a, b Cell) int {
		if a.Ref.Row != b.Ref.Row {
			return a.Ref.Row - b.Ref.Row
		}
		return a.Ref.Col - b.Ref.Col
	})
	return out, nil
}

// ParseCell reads one cell's reference as a user's input.
func ParseCell(s string) (sheet.Ref, error) {
	r, err := sheet.ParseRange(s)
	if err != nil {
		return sheet.Ref{}, calls.Errorf(calls.ErrBadInput, "give one cell like B2", "%v", err)
	}
	if r.From != r.To {
		return sheet.Ref{}, calls.Errorf(calls.ErrBadInput, "give one cell like B2; "+calls.Cmd("sheet fill")+" writes several", "%q is a range, not one cell", s)
	}
	return r.From, nil
}

// Typable refuses a value typing cannot put in one cell: a line break or
// a tab would commit it or move to the next cell.
func Typable(cell, v string) error {
	if strings.ContainsAny(v, "\r\n\t") {
		return calls.Errorf(calls.ErrBadInput, "give the cell one line without tabs", "the value for %s holds a line break or a tab, which typing cannot put in one cell (it commits or moves on)", cell)
	}
	return nil
}

// List names the cells, in order: "B2, C2, D5".
func List(cells []Cell) string {
	names := make([]string, len(cells))
	for i, c := range cells {
		names[i] = c.Ref.String()
	}
	return strings.Join(names, ", ")
}

// Writes are the values a fill writes, by cell, as the person
// approving sees them: a secret masked, a value that looks secret
// redacted.
func Writes(cells []Cell) map[string]string {
	out := make(map[string]string, len(cells))
	for _, c := range cells {
		v := secret.Redact(c.Value)
		if c.Secret {
			v = secret.Masked
		}
		out[c.Ref.String()] = v
	}
	return out
}

// Digest binds an approval to the values it writes: a hash of every
// cell and value, but a secret's value is left out. The approval is
// shown (to the model when the client cannot ask its person, and in
// --json), and a hash of a PIN is the PIN to anyone who tries the ten
// thousand of them; the person approved the secret cell masked, so any
// secret value fits what they approved.
func Digest(cells []Cell) string {
	h := sha256.New()
	for _, c := range cells {
		if c.Secret {
			fmt.Fprintf(h, "%s\x00\x01secret\x00", c.Ref)
			continue
		}
		fmt.Fprintf(h, "%s\x00%s\x00", c.Ref, c.Value)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// ParseRange reads a range as a user's input.
func ParseRange(s string) (sheet.Range, error) {
	r, err := sheet.ParseRange(s)
	if err != nil {
		return r, calls.Errorf(calls.ErrBadInput, "give a range like A1:C20, or one cell like B2", "%v", err)
	}
	return r, nil
}
