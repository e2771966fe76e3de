package pilot

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/recipe"
)

// ListOptions read a list over pages (ExtractOptions.List).
type ListOptions struct {
	// Pages reads up to this many pages, following the next-page control
	// (found by its intent, with no model) or, with Scroll, scrolling a
	// page that grows. Zero or one reads one page.
	//
	// The model reads the first page (unless a recipe reads it) and later
	// pages are read by the recipe learned from it, with no model, except
	// a page where the recipe no longer fits (a heal) or whose rows show
	// a shape no page the model read showed (text where those rows had
	// none: a sale price, a badge): the model reads that page too. Every
	// recipe learned is learned against every page the model read in the
	// run (kept as snapshots, [recipe.LearnPages]) and kept only if it
	// reads all their rows back; pages read by a recipe teach it nothing.
	Pages  int
	Scroll bool
	// Key is the field that names a row: rows with a key already read are
	// merged (counted in Duplicates), and rows whose key is in Seen are
	// left out.
	Key  string
	Seen []string
	// Limit stops at this many rows.
	Limit int
	// Until stops at the first row whose date (UntilField, or the first
	// field that reads as a date) is older than it.
	Until      time.Time
	UntilField string
	// Now is the time relative dates ("3 hours ago") count from; zero is
	// time.Now.
	Now time.Time
}

// How a list over pages ended (ExtractResult.Ended).
const (
	EndNoNext   = "no-next"   // no next page, or a scrolled page stopped growing
	EndRepeated = "repeated"  // the next page did not change, or repeats one read
	EndLimit    = "limit"     // Limit rows read
	EndUntil    = "until"     // a row older than Until
	EndMaxPages = "max-pages" // Pages read
)

func (o ExtractOptions) overPages() bool {
	l := o.List
	return l.Pages > 1 || l.Scroll || l.Key != "" || l.Limit > 0 || !l.Until.IsZero() || len(l.Seen) > 0
}

// collector gathers a list's rows over pages.
type collector struct {
	o          ListOptions
	rows       []map[string]any
	keys, seen map[string]bool
	newKeys    []string
	dups       int
	dateField  string
}

// add takes a page's rows; it says how the list ended, or "".
func (c *collector) add(rows []map[string]any) string {
	for _, row := range rows {
		if !c.o.Until.IsZero() {
			if c.dateField == "" {
				c.dateField = c.o.UntilField
				names := make([]string, 0, len(row))
				for name := range row {
					names = append(names, name)
				}
				slices.Sort(names) // the same field every run
				for _, name := range names {
					if s, ok := row[name].(string); ok && c.dateField == "" {
						if _, ok := recipe.ParseDate(s, c.o.Now); ok {
							c.dateField = name
						}
					}
				}
			}
			if s, ok := row[c.dateField].(string); ok {
				if d, ok := recipe.ParseDate(s, c.o.Now); ok && d.Before(c.o.Until) {
					return EndUntil
				}
			}
		}
		if c.o.Key != "" && row[c.o.Key] != nil {
			k := fmt.Sprint(row[c.o.Key])
			if c.seen[k] {
				continue
			}
			if c.keys[k] {
				c.dups++
				continue
			}
			c.keys[k] = true
			c.newKeys = append(c.newKeys, k)
		}
		c.rows = append(c.rows, row)
		if c.o.Limit > 0 && len(c.rows) >= c.o.Limit {
			return EndLimit
		}
	}
	return ""
}

// extractPages reads a list over pages: the first as extractOne does
// (the model, or a recipe), each later one by the recipe with no model
// (or the model again when no recipe could be kept).
func (p *Pilot) extractPages(ctx context.Context, instruction string, schema json.RawMessage, o ExtractOptions) (*ExtractResult, error) {
	list, err := recipe.ListOf(schema)
	if err != nil {
		return nil, &calls.Error{Kind: calls.ErrBadInput, Msg: "pages, key, limit, until and seen read lists: " + err.Error(), Hint: "use a schema that is an array of objects, or an object holding one"}
	}
	ev, ok := p.d.(recipe.Evaler)
	if !ok {
		return nil, &calls.Error{Kind: calls.ErrUnavailable, Msg: "this driver runs no scripts, so it cannot read a list over pages", Hint: "use a calls.Session"}
	}
	lo := o.List
	if lo.UntilField == "" {
		for _, f := range list.Fields { // a field the schema says is a date
			if f.Format != "" {
				lo.UntilField = f.Name
				break
			}
		}
	}
	if lo.UntilField != "" && !slices.ContainsFunc(list.Fields, func(f recipe.Field) bool { return f.Name == lo.UntilField }) {
		return nil, &calls.Error{Kind: calls.ErrBadInput, Msg: fmt.Sprintf("the until field %q is not a field of the list", lo.UntilField), Hint: "name a field of the schema's rows that holds a date"}
	}
	lo.Now = o.now()
	o.Now = lo.Now // one clock for every page's dates
	if lo.Pages < 1 {
		lo.Pages = 1
	}
	o.Learn = true // later pages are read by the recipe
	// Every recipe learned over pages is learned against every page the
	// model read, and a page whose rows show a shape none of those did is
	// read by the model too.
	var book *teacher
	if p.m != nil {
		book = &teacher{}
	}
	res, err := p.extractOne(ctx, instruction, schema, o, book)
	if err != nil {
		return nil, err
	}
	col := &collector{o: lo, keys: map[string]bool{}, seen: map[string]bool{}}
	for _, k := range lo.Seen {
		col.seen[k] = true
	}
	var data any
	json.Unmarshal(res.Data, &data)
	rows := list.RowsOf(data)
	sigs := map[string]bool{rowsSig(rows): true}
	res.Pages = 1
	ended := col.add(rows)
	for ended == "" {
		if res.Pages >= lo.Pages {
			ended = EndMaxPages
			break
		}
		before := len(rows)
		if lo.Scroll {
			if _, err := p.d.Act(ctx, calls.ActRequest{Kind: calls.ActScroll, Direction: "down", Pixels: 100000}); err != nil {
				return nil, err
			}
		} else {
			loc, err := recipe.FindNext(ctx, ev)
			if err != nil {
				return nil, err
			}
			if loc == "" {
				ended = EndNoNext
				break
			}
			if _, err := p.d.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: loc, Submits: "ask"}); err != nil {
				return nil, fmt.Errorf("go to page %d: %w", res.Pages+1, err)
			}
		}
		next, r, err := p.nextPage(ctx, instruction, schema, list, ev, res.Recipe, rows, lo.Scroll, lo.Now, book)
		if err != nil {
			return nil, err
		}
		res.Usage = res.Usage.Add(r.Usage)
		if r.Heal != nil {
			res.Heal = r.Heal
		}
		if r.Recipe != res.Recipe || r.RecipeNote != "" {
			res.RecipeNote = r.RecipeNote
		}
		res.Recipe = r.Recipe
		res.Pages++
		if lo.Scroll {
			if len(next) <= before {
				ended = EndNoNext
				break
			}
			rows = next
			ended = col.add(next[before:])
			continue
		}
		sig := rowsSig(next)
		if sigs[sig] {
			ended = EndRepeated
			break
		}
		sigs[sig] = true
		rows = next
		ended = col.add(next)
	}
	res.Ended = ended
	res.Duplicates = col.dups
	res.Keys = col.newKeys
	res.Rows = len(col.rows)
	answer := list.Answer(col.rows)
	res.Data = p.maskData(answer)
	if sch, err := compileSchema(schema); err == nil {
		res.Problems = sch.problems(answer)
		res.OK = len(res.Problems) == 0
	}
	return res, nil
}

// nextPage reads the page after a move: by the recipe, waiting a moment
// for rows other than the last page's (a page that changes in place), or
// by the model when there is no recipe. A recipe that no longer fits is
// learned again (with a model), as is one that fits but whose rows show a
// shape no page the model read showed (book); both against every page the
// model read.
func (p *Pilot) nextPage(ctx context.Context, instruction string, schema json.RawMessage, list *recipe.List, ev recipe.Evaler, r *recipe.Recipe, last []map[string]any, scroll bool, now time.Time, book *teacher) ([]map[string]any, *ExtractResult, error) {
	rowsOf := func(res *ExtractResult, err error) ([]map[string]any, *ExtractResult, error) {
		if err != nil {
			return nil, nil, err
		}
		var data any
		json.Unmarshal(res.Data, &data)
		return list.RowsOf(data), res, nil
	}
	if r == nil {
		res, err := p.Extract(ctx, instruction, schema)
		if err == nil {
			p.isoDates(ctx, list, res, now)
		}
		return rowsOf(res, err)
	}
	lastSig := rowsSig(last)
	deadline := time.Now().Add(3 * time.Second)
	for {
		got, err := recipe.ReadAt(ctx, ev, r, now)
		if err != nil {
			return nil, nil, err
		}
		changed := rowsSig(got.Rows) != lastSig && (!scroll || len(got.Rows) > len(last))
		if got.Misfit == "" && (changed || time.Now().After(deadline)) {
			if book.unknown(got.Shapes) == "" {
				return got.Rows, &ExtractResult{Recipe: r}, nil
			}
			// Rows the recipe reads, but of a shape it was not learned on:
			// the model reads them and the recipe is learned again.
			return rowsOf(p.extractOne(ctx, instruction, schema, ExtractOptions{Learn: true, Now: now}, book))
		}
		if got.Misfit != "" && time.Now().After(deadline) {
			return rowsOf(p.extractOne(ctx, instruction, schema, ExtractOptions{Recipe: r, Now: now}, book))
		}
		select {
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func rowsSig(rows []map[string]any) string {
	b, _ := json.Marshal(rows)
	return string(b)
}
