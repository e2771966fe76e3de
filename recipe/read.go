package recipe

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Rows is what a recipe read from a page.
type Rows struct {
	// Rows hold each field in the schema's type; null where the row does
	// not show it.
	Rows []map[string]any
	// Misfit says why the recipe no longer fits the page (no container,
	// no rows, a required field missing, a value not of its type); empty
	// when it fits.
	Misfit string
	// Shapes are the places in a row where the rows read write text (each
	// a path of tags and classes from the row), over all rows: a page
	// whose rows write text where the pages a model read did not has a row
	// shape the recipe was not learned on.
	Shapes []string
}

type readReply struct {
	Error  string               `json:"error"`
	Found  bool                 `json:"found"`
	Rows   []map[string]*string `json:"rows"`
	Shapes []string             `json:"shapes"`
	Lang   string               `json:"lang"`
}

// Read reads a list by r in one script, and says whether r still fits.
// Relative dates count from now ([ReadAt] takes the clock). A recipe that
// no longer fits the page is no error: the rows come back with
// [Rows.Misfit] saying why (a caller with a model learns it again). The
// error is for a read that could not be made (the script failed, the page
// went away).
func Read(ctx context.Context, ev Evaler, r *Recipe) (*Rows, error) {
	return ReadAt(ctx, ev, r, time.Now())
}

// ReadAt is [Read] with relative dates ("3 hours ago") counted from now.
func ReadAt(ctx context.Context, ev Evaler, r *Recipe, now time.Time) (*Rows, error) {
	return readIn(ctx, ev, r, nil, now)
}

// readIn reads by r in the page in the tab, or in a snapshot of a page
// read earlier (see [Snapshot]).
func readIn(ctx context.Context, ev Evaler, r *Recipe, snapshot *string, now time.Time) (*Rows, error) {
	var rep readReply
	if err := run(ctx, ev, readJS, map[string]any{"recipe": r, "snapshot": snapshot}, &rep); err != nil {
		return nil, fmt.Errorf("read by the recipe: %w", err)
	}
	if rep.Error != "" {
		return nil, fmt.Errorf("read by the recipe: %s", rep.Error)
	}
	out := &Rows{Rows: []map[string]any{}, Shapes: rep.Shapes}
	var missing []string
	for i, row := range rep.Rows {
		typed := map[string]any{}
		for _, f := range r.Fields {
			v, ok := ValueAt(row[f.Name], f, rep.Lang, now)
			if !ok && out.Misfit == "" {
				what := f.Type
				if f.Format != "" {
					what = "date"
				}
				out.Misfit = fmt.Sprintf("row %d: %s reads %q, not a %s", i+1, f.Name, *row[f.Name], what)
				if f.words() {
					out.Misfit = fmt.Sprintf("row %d: %s reads %q, a word not seen when the recipe was learned (true: %s; false: %s)",
						i+1, f.Name, *row[f.Name], wordList(f.Yes), wordList(f.No))
				}
			}
			if v == nil && !f.Optional && f.By != ByNone && len(missing) < 3 {
				missing = append(missing, fmt.Sprintf("row %d has no %s", i+1, f.Name))
			}
			typed[f.Name] = v
		}
		out.Rows = append(out.Rows, typed)
	}
	switch {
	case !rep.Found:
		out.Misfit = "the list's container (" + r.Container + ") is not on the page"
	case len(out.Rows) == 0:
		out.Misfit = "the container holds no rows"
	case len(missing) > 0 && out.Misfit == "":
		out.Misfit = "rows found but fields missing: " + strings.Join(missing, ", ")
	}
	return out, nil
}

func wordList(ws []string) string {
	if len(ws) == 0 {
		return "none"
	}
	return strings.Join(ws, ", ")
}
