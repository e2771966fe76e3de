package pilot

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/recipe"
	"github.com/waymark-dev/waymark/sheet"
)

// ExtractOptions say how [Pilot.ExtractWith] reads a list: a schema that is
// an array of objects, or an object holding one.
type ExtractOptions struct {
	// Recipe reads the list with no model call. When it no longer fits the
	// page (its container gone, no rows, rows with a field missing), the
	// model reads the page and the recipe is learned again: the result's
	// Heal says why. With no model (a nil Model), that is an error of
	// category calls.ErrNoMatch.
	Recipe *recipe.Recipe
	// Learn asks, after the model reads the list, for the recipe that
	// reads it again with no model (the result's Recipe), or why there is
	// none (RecipeNote). A heal always learns.
	Learn bool
	// List reads the list over pages, and where to stop.
	List ListOptions
	// Now is the time relative dates ("3 hours ago", "yesterday") count
	// from, in values of format date or date-time and in List.Until; zero
	// is time.Now.
	Now time.Time
	// Sheet, when set, says the page is a spreadsheet and gives its grid:
	// a list is then read from the sheet's tables ([Pilot.ExtractSheet]);
	// a schema that is no list reads the page as usual.
	Sheet SheetDump
	// Grid reads the sheet's list by a grid recipe with no model (with
	// Sheet); when it no longer fits, a model places the columns again and
	// the recipe is learned again (a heal). Learn, with Sheet, learns one.
	Grid *sheet.Recipe
}

func (o ExtractOptions) now() time.Time {
	if !o.Now.IsZero() {
		return o.Now
	}
	if !o.List.Now.IsZero() {
		return o.List.Now
	}
	return time.Now()
}

// RecipeHeal says that a recipe stopped fitting and was learned again.
type RecipeHeal struct {
	Misfit string         `json:"misfit"` // what no longer fitted
	Before *recipe.Recipe `json:"before"` // the recipe that stopped fitting
}

// Where the data of an ExtractResult came from.
const (
	SourceModel  = "model"
	SourceRecipe = "recipe"
)

// ExtractWith is [Pilot.Extract] for lists, with recipes: it reads a list
// by a recipe with no model, and learns one from what the model read. The
// recipe is checked against the page in the driver's isolated world, so
// the driver must run scripts (calls.Session does).
func (p *Pilot) ExtractWith(ctx context.Context, instruction string, schema json.RawMessage, o ExtractOptions) (*ExtractResult, error) {
	// A schema that does not compile is the user's mistake, told before
	// anything is read or any model is asked, whichever way the list is read.
	if _, err := compileSchema(schema); err != nil {
		return nil, &calls.Error{Kind: calls.ErrBadInput, Msg: err.Error(), Hint: "check the schema file: it must be a JSON Schema"}
	}
	if o.Sheet != nil {
		if res, ok, err := p.extractSheet(ctx, instruction, schema, o); ok {
			return res, err
		}
	} else if o.Grid != nil {
		return nil, &calls.Error{Kind: calls.ErrBadInput, Msg: "a grid recipe reads a spreadsheet, and this page is not one", Hint: "open the sheet the recipe was learned on, or give a page recipe"}
	}
	if o.overPages() {
		return p.extractPages(ctx, instruction, schema, o)
	}
	return p.extractOne(ctx, instruction, schema, o, nil)
}

// extractOne reads one page of a list. Over pages, book holds the pages
// the model read before: a recipe is learned against all of them.
func (p *Pilot) extractOne(ctx context.Context, instruction string, schema json.RawMessage, o ExtractOptions, book *teacher) (*ExtractResult, error) {
	if o.Recipe == nil && !o.Learn {
		res, err := p.Extract(ctx, instruction, schema)
		if err == nil {
			if list, lerr := recipe.ListOf(schema); lerr == nil {
				p.isoDates(ctx, list, res, o.now())
			}
		}
		return res, err
	}
	now := o.now()
	sch, err := compileSchema(schema)
	if err != nil {
		return nil, &calls.Error{Kind: calls.ErrBadInput, Msg: err.Error(), Hint: "check the schema file: it must be a JSON Schema"}
	}
	list, err := recipe.ListOf(schema)
	if err != nil {
		return nil, &calls.Error{Kind: calls.ErrBadInput, Msg: "a recipe reads lists: " + err.Error(), Hint: "use a schema that is an array of objects, or an object holding one"}
	}
	ev, ok := p.d.(recipe.Evaler)
	if !ok {
		return nil, &calls.Error{Kind: calls.ErrUnavailable, Msg: "this driver runs no scripts, so it cannot read by a recipe", Hint: "use a calls.Session: the in-process driver or the daemon's"}
	}
	var heal *RecipeHeal
	if o.Recipe != nil {
		if err := fits(o.Recipe, list); err != nil {
			return nil, err
		}
		got, err := recipe.ReadAt(ctx, ev, o.Recipe, now)
		if err != nil {
			return nil, err
		}
		misfit := got.Misfit
		if misfit == "" {
			res := &ExtractResult{Source: SourceRecipe, Recipe: o.Recipe, Rows: len(got.Rows)}
			data := list.Answer(got.Rows)
			if res.Problems = sch.problems(data); len(res.Problems) == 0 {
				// Read from the page with no model: masked as the model's
				// page would have been (a secret the page shows stays out).
				res.Data = p.maskData(data)
				res.OK = true
				return res, nil
			}
			misfit = "the rows read do not fit the schema: " + res.Problems[0]
		}
		if p.m == nil {
			return nil, &calls.Error{Kind: calls.ErrNoMatch, Msg: "the recipe no longer fits the page: " + misfit,
				Hint: "give a model (--model) to read the page and learn the recipe again"}
		}
		heal = &RecipeHeal{Misfit: misfit, Before: o.Recipe}
	}
	if p.m == nil {
		return nil, &calls.Error{Kind: calls.ErrBadInput, Msg: "extract needs a model to read the page, or a recipe", Hint: "give --model, or --recipe FILE learned earlier"}
	}
	res, err := p.Extract(ctx, instruction, schema)
	if err != nil {
		if heal != nil {
			return nil, fmt.Errorf("the recipe no longer fits the page (%s), and reading it again failed: %w", heal.Misfit, err)
		}
		return nil, err
	}
	res.Heal = heal
	var data any
	json.Unmarshal(res.Data, &data)
	rows := list.RowsOf(data)
	res.Rows = len(rows)
	if !res.OK {
		res.RecipeNote = "no recipe: the model's answer does not fit the schema"
		return res, nil
	}
	var r *recipe.Recipe
	if book != nil {
		r, err = book.learn(ctx, ev, list, rows, now)
	} else {
		r, err = recipe.LearnAt(ctx, ev, list, rows, now)
	}
	p.isoDates(ctx, list, res, now) // after learning, which finds the dates as the page writes them
	if err != nil {
		res.RecipeNote = err.Error()
		return res, nil
	}
	if u, err := p.d.Get(ctx, calls.GetRequest{What: "url"}); err == nil {
		r.URL = p.mask(u.Value) // the recipe is saved to a file
	}
	res.Recipe = r
	return res, nil
}

// fits checks a recipe was learned for this schema's list.
func fits(r *recipe.Recipe, l *recipe.List) error {
	bad := func(why string) error {
		return &calls.Error{Kind: calls.ErrBadInput, Msg: "the recipe was learned for another schema: " + why, Hint: "use the schema the recipe was learned with, or learn a new recipe"}
	}
	if r.List != l.Path {
		return bad(fmt.Sprintf("it reads the list %q, the schema holds %q", r.List, l.Path))
	}
	if len(r.Fields) != len(l.Fields) {
		return bad(fmt.Sprintf("it reads %d fields, the schema has %d", len(r.Fields), len(l.Fields)))
	}
	// By name, in any order: a schema kept in a routine file may come
	// back with its properties in another order.
	types := map[string]string{}
	for _, f := range r.Fields {
		types[f.Name] = f.Type
	}
	for _, f := range l.Fields {
		t, ok := types[f.Name]
		switch {
		case !ok:
			return bad(fmt.Sprintf("it has no field %s", f.Name))
		case t != f.Type:
			return bad(fmt.Sprintf("field %s is a %s in the recipe, a %s in the schema", f.Name, t, f.Type))
		}
	}
	return nil
}

// isoDates gives the dates of a list the model read (fields of format
// date or date-time) in ISO 8601, as a recipe reads them: the page's
// language says which way 03/04/2012 goes.
func (p *Pilot) isoDates(ctx context.Context, list *recipe.List, res *ExtractResult, now time.Time) {
	if !recipe.HasDates(list.Fields) || res == nil || len(res.Data) == 0 {
		return
	}
	lang := ""
	if ev, ok := p.d.(recipe.Evaler); ok {
		lang, _ = recipe.PageLang(ctx, ev) // unknown: only dates that read one way are read
	}
	var data any
	if json.Unmarshal(res.Data, &data) != nil {
		return
	}
	recipe.NormalDates(list.RowsOf(data), list.Fields, lang, now)
	res.Data, _ = json.Marshal(data)
}
