package form

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/elem"
	"github.com/waymark-dev/waymark/internal/hand"
	"github.com/waymark-dev/waymark/secret"
)

// Filling a form from answers (issue 17): each field as its kind needs,
// every write read back, a refused value tried once more with the page's
// error in mind. Filling never presses Enter or a submit control; the
// page's own attempts to send while it fills (a submit on change, a
// requestSubmit from a script) are held at the point of sending by the
// core's submit gate, which the core sets up around [Fill]. Errors never
// quote an answer: it may be a secret.

// Answer is one answer of a fill.
type Answer struct {
	Key, Value string
	Secret     bool
	// Dir is the folder a file field's relative answer is read from
	// (calls.FormFillRequest.Dir, or its Dirs for this key).
	Dir string
}

// defaultRounds is how many reads a fill makes, at most, to find the
// fields earlier answers revealed or added.
const defaultRounds = 4

// optionWait bounds the wait for a typeahead's or a list's options.
const optionWait = 3 * time.Second

// Answers are a fill request's answers and secrets, in key order; a key
// given twice, or none at all, is refused.
func Answers(req calls.FormFillRequest) ([]Answer, error) {
	var answers []Answer
	for k, v := range req.Answers {
		answers = append(answers, Answer{Key: k, Value: v, Dir: answerDir(req, k)})
	}
	for k, v := range req.Secrets {
		if _, dup := req.Answers[k]; dup {
			return nil, calls.Errorf(calls.ErrBadInput, "give each field one answer", "%q is both an answer and a secret", k)
		}
		answers = append(answers, Answer{Key: k, Value: v, Secret: true, Dir: answerDir(req, k)})
	}
	if len(answers) == 0 {
		return nil, calls.Errorf(calls.ErrBadInput, "give answers by key or label: {\"email\": \"ann@example.com\"} ("+calls.Cmd("form")+" lists the keys)", "no answers given")
	}
	sort.Slice(answers, func(i, j int) bool { return answers[i].Key < answers[j].Key })
	return answers, nil
}

// answerDir is the folder the answer key's relative file path is read
// from.
func answerDir(req calls.FormFillRequest, key string) string {
	if d, ok := req.Dirs[key]; ok {
		return d
	}
	return req.Dir
}

// Fill fills the tab's fields from answers, in rounds: each round reads
// the form, adds the copies of repeated sections the answers name, and
// writes the answers that have a field. inFrames is set once a field of
// an out-of-process frame was written (the core's gate then waits for
// its sends too).
func Fill(ctx context.Context, v View, answers []Answer, req calls.FormFillRequest, inFrames *bool) (*calls.FormFillResult, error) {
	h := v.Hand(req.Hand)
	rounds := req.Rounds
	if rounds <= 0 {
		rounds = defaultRounds
	}
	first, err := Read(ctx, v)
	if err != nil {
		return nil, err
	}
	before := map[string]string{}
	for _, f := range first.fields {
		before[f.Key] = f.Value
	}
	done := map[string]*calls.FilledField{}
	res := &calls.FormFillResult{}
	sc := first
	pending := answers
	why := map[string]string{}     // why an answer is left
	whyCopy := map[string]string{} // why the copy an answer is for is not there
	typed := map[string]Answer{}   // the answer each written field took
	for round := 1; round <= rounds && len(pending) > 0; round++ {
		if round > 1 {
			if sc, err = Read(ctx, v); err != nil {
				return nil, err
			}
		}
		res.Rounds = round
		progressed := false
		// Copies the answers name that the page does not show yet are
		// added first, before any answer of the round is written.
		next, pressed, err := addCopies(ctx, v, sc, pending, whyCopy, h)
		if err != nil {
			return nil, err
		}
		if pressed {
			progressed = true
			pending = append(pending, retypeLost(next, done, typed, before, res)...)
			sc = next
		}
		var left []Answer
		type job struct {
			at int
			f  *field
			a  Answer
		}
		var jobs []job
		taken := map[string]bool{}
		for _, a := range pending {
			f, ambiguous := sc.match(a.Key)
			if f == nil {
				why[a.Key] = "no field takes this answer"
				if ambiguous {
					why[a.Key] = "several fields answer to it: use its key (waymark form lists them)"
				} else if w := whyCopy[a.Key]; w != "" {
					why[a.Key] = w
				}
				left = append(left, a)
				continue
			}
			if _, twice := done[f.Key]; twice || taken[f.Key] {
				why[a.Key] = "another answer is for the same field (" + f.Key + ")"
				left = append(left, a)
				continue
			}
			taken[f.Key] = true
			jobs = append(jobs, job{at: slices.Index(sc.fields, f), f: f, a: a})
		}
		// In the page's order, as a person goes down the form.
		sort.SliceStable(jobs, func(i, j int) bool { return jobs[i].at < jobs[j].at })
		// A file answer the driver cannot place (a relative path with no
		// folder to read it from, in the daemon) is the caller's mistake,
		// not the field's: the fill is refused before the round writes
		// anything, with what to give instead.
		for _, j := range jobs {
			if j.f.Kind == calls.FieldFile {
				if _, err := v.UploadPath(j.a.Value, j.a.Dir); err != nil {
					return nil, err
				}
			}
		}
		for _, j := range jobs {
			done[j.f.Key] = fillField(ctx, v, j.f, j.a, h)
			typed[j.f.Key] = j.a
			if j.f.el.InFrame() {
				*inFrames = true
			}
			progressed = true
		}
		pending = left
		if !progressed {
			break
		}
	}
	final, err := Read(ctx, v)
	if err != nil {
		return nil, err
	}
	res.URL, res.Errors = final.shown, final.errors
	for _, a := range pending {
		res.Unmatched = append(res.Unmatched, a.Key)
	}
	seen := map[string]bool{}
	for _, f := range final.fields {
		seen[f.Key] = true
		ff := calls.FilledField{Key: f.Key, Label: f.Label, Kind: f.Kind, Ref: f.Ref, Before: before[f.Key], After: f.Value}
		if d, ok := done[f.Key]; ok {
			ff.Answered, ff.ReadBack, ff.Tries, ff.Error = true, d.ReadBack, d.Tries, d.Error
		}
		if ff.Error == "" {
			ff.Error = f.Error
		}
		res.Fields = append(res.Fields, ff)
		switch {
		case ff.Answered && !ff.ReadBack:
			res.NeedsPerson = append(res.NeedsPerson, fmt.Sprintf("%s: the answer did not take: %s", f.Key, ff.Error))
		case f.Error != "":
			res.NeedsPerson = append(res.NeedsPerson, fmt.Sprintf("%s: the page says %q", f.Key, f.Error))
		case f.Required && (f.Value == "" || f.Kind == calls.FieldCheckbox && f.Value == "false"):
			res.NeedsPerson = append(res.NeedsPerson, fmt.Sprintf("%s: required and empty", f.Key))
		}
	}
	// A field filled that is gone now (a section the page folded) is still told.
	for _, k := range slices.Sorted(maps.Keys(done)) {
		if d := done[k]; !seen[k] {
			d.After = ""
			res.Fields = append(res.Fields, *d)
		}
	}
	for _, k := range res.Unmatched {
		res.NeedsPerson = append(res.NeedsPerson, fmt.Sprintf("%s: %s", k, why[k]))
	}
	v.RememberPage(final.Form())
	return res, nil
}

// match finds the field an answer names: by key, else by key or label
// written another way; several fields with the label match none
// (ambiguous is then set): never a near one.
func (sc *Scan) match(key string) (f *field, ambiguous bool) {
	for _, x := range sc.fields {
		if x.Key == key {
			return x, false
		}
	}
	want := FoldKey(key)
	var found []*field
	for _, x := range sc.fields {
		if FoldKey(x.Key) == want || FoldKey(x.Label) == want {
			found = append(found, x)
		}
	}
	if len(found) == 1 {
		return found[0], false
	}
	return nil, len(found) > 1
}

// fillField writes one answer into its field and reads it back, trying
// once more with the page's error in mind.
func fillField(ctx context.Context, v View, f *field, a Answer, h *hand.Hand) *calls.FilledField {
	ff := &calls.FilledField{Key: f.Key, Label: f.Label, Kind: f.Kind, Ref: f.Ref, Before: f.Value, Answered: true}
	if f.Disabled {
		ff.Error = "the field is disabled"
		return ff
	}
	if a.Secret {
		f.secret = true
		v.MarkSecret(f.el, a.Key)
		if f.input != nil {
			v.MarkSecret(f.input, a.Key)
		}
	}
	value := a.Value
	for try := 1; try <= 2; try++ {
		ff.Tries = try
		want, err := writeField(ctx, v, f, value, a.Dir, h)
		got, pageErr := f.readBack(ctx)
		switch {
		case err != nil:
			ff.Error = ErrText(err)
		case pageErr != "":
			ff.Error = secret.Redact(pageErr)
		case !SameValue(f.Kind, f.Format, want, got):
			ff.Error = "the field holds something else after the write"
		default:
			ff.ReadBack, ff.Error = true, ""
			ff.After = shownValue(f, got)
			return ff
		}
		ff.After = shownValue(f, got)
		next, ok := Retry(&f.FormField, a.Value, pageErr)
		if !ok {
			break
		}
		value = next
	}
	return ff
}

// writeField writes value into the field as its kind needs and returns
// what the field should hold after; a file field's relative path is read
// from dir.
func writeField(ctx context.Context, v View, f *field, value, dir string, h *hand.Hand) (string, error) {
	el := f.el
	timeout := elem.DefaultTimeout
	if strings.ContainsAny(value, "\r\n") {
		// A line break is never typed as Enter (it would send the form):
		// a text area or an editor takes it inserted, at once; a one-line
		// field refuses it.
		if f.Kind != calls.FieldTextarea && f.Kind != calls.FieldRichtext {
			return "", calls.Errorf(calls.ErrBadInput, "give a one-line field an answer of one line", "a one-line field takes no line break")
		}
		h = nil
	}
	switch f.Kind {
	case calls.FieldText, calls.FieldTextarea, calls.FieldRichtext:
		return value, el.Fill(ctx, value, timeout, h)
	case calls.FieldDate:
		if browserDate(f.typ) {
			w, err := Value(f.typ, value)
			if err != nil {
				return "", err
			}
			return w, el.Fill(ctx, value, timeout, h)
		}
		if f.readonly {
			return value, pickOnCalendar(ctx, f, value, h)
		}
		w := value
		if f.Format != "" {
			if y, m, d, err := ParseDate(value); err == nil {
				w = FormatDate(f.Format, y, m, d)
			}
		}
		return w, el.Fill(ctx, w, timeout, h)
	case calls.FieldSelect:
		var res struct {
			Error    string   `json:"error"`
			Selected []string `json:"selected"`
		}
		if err := el.CallOn(ctx, jsSelectWords, &res, value); err != nil {
			return "", err
		}
		if res.Error != "" {
			return "", calls.Errorf(calls.ErrBadInput, "options: "+QuoteList(f.Options, 12), "%s", res.Error)
		}
		return strings.Join(res.Selected, ", "), nil
	case calls.FieldCheckbox:
		on, ok := Truthy(value)
		if !ok {
			return "", calls.Errorf(calls.ErrBadInput, `answer a checkbox with "true" or "false"`, "a checkbox takes true or false")
		}
		return strconv.FormatBool(on), check(ctx, v, el, on, h)
	case calls.FieldRadio:
		i := PickOption(f.Options, value, false)
		if i < 0 || i >= len(f.opts) {
			return "", calls.Errorf(calls.ErrBadInput, "options: "+QuoteList(f.Options, 12), "no option of the group is the answer")
		}
		return f.Options[i], check(ctx, v, f.opts[i], true, h)
	case calls.FieldTypeahead:
		if len(f.Options) > 0 {
			// A <datalist>: the browser's own list, which no click
			// reaches; the option that is the answer is typed whole.
			i := PickOption(f.Options, value, true)
			if i < 0 {
				return "", calls.Errorf(calls.ErrNoMatch, "options: "+QuoteList(f.Options, 12), "no option of the list is the answer")
			}
			return f.Options[i], el.Fill(ctx, f.Options[i], timeout, h)
		}
		return fillTypeahead(ctx, f, value, h)
	case calls.FieldCombobox:
		if err := openList(ctx, v, el, h); err != nil {
			return "", err
		}
		return pickListOption(ctx, f, value, h)
	case calls.FieldSlider:
		if f.typ == "range" {
			return value, el.Fill(ctx, value, timeout, h)
		}
		return fillSlider(ctx, v, f, value)
	case calls.FieldFile:
		return fillFile(ctx, v, f, value, dir)
	}
	return "", calls.Errorf(calls.ErrNotInteractable, "fill it with the other commands", "a %s field cannot be filled from an answer", f.Kind)
}

// browserDate says whether an input type is one of the browser's own
// date and time fields.
func browserDate(typ string) bool {
	switch typ {
	case "date", "time", "datetime-local", "month", "week":
		return true
	}
	return false
}

// jsFieldState reads one field as js/form.js does: its value and what the
// page says is wrong with it.
var jsFieldState = sync.OnceValue(func() string {
	return `async function (kind, blur) {
  const F = ` + jsForm + `;
  if (blur && this.blur) {
    // As when a person moves on: pages check a field when it loses the
    // focus. Their handlers, and the tasks they queue, run first.
    this.blur();
    for (let i = 0; i < 2; i++) await new Promise(r => setTimeout(r, 0));
  }
  let opts = null;
  if (kind === 'radio') {
    const rg = this.closest('[role=radiogroup]');
    opts = Array.from(rg ? rg.querySelectorAll('input[type=radio], [role=radio]')
      : (this.form || this.getRootNode()).querySelectorAll('input[type=radio][name="' + CSS.escape(this.name) + '"]'));
  }
  return { value: F.valueOf(this, kind, opts), error: F.errorOf(this, kind) };
}`
})

// readBack reads the field as it is now, after the page's own scripts
// saw the write (the field loses the focus first, as when a person moves
// on: pages check a field when it does).
func (f *field) readBack(ctx context.Context) (string, string) {
	var st struct {
		Value string `json:"value"`
		Error string `json:"error"`
	}
	if err := f.el.CallOn(ctx, jsFieldState(), &st, f.Kind, f.Kind != calls.FieldSlider); err != nil {
		return "", ""
	}
	return st.Value, st.Error
}
