package driver

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
	"github.com/waymark-dev/waymark/driver/internal/form"
	"github.com/waymark-dev/waymark/internal/hand"
	"github.com/waymark-dev/waymark/secret"
)

// Filling a form from answers (issue 17): each field as its kind needs,
// every write read back, a refused value tried once more with the page's
// error in mind. Filling never presses Enter or a submit control, and the
// page's own attempts to send while it fills (a submit on change, a
// requestSubmit from a script) are held at the point of sending by the
// submit gate (sendgate.go) and reported. Errors never quote an answer:
// it may be a secret.

// answer is one answer of a fill.
type answer struct {
	key, value string
	secret     bool
}

// defaultFormRounds is how many reads a fill makes, at most, to find the
// fields earlier answers revealed or added.
const defaultFormRounds = 4

// optionWait bounds the wait for a typeahead's or a list's options.
const optionWait = 3 * time.Second

// FillForm fills the current page's fields from answers.
func (s *Session) FillForm(ctx context.Context, req calls.FormFillRequest) (reply *calls.FormFillResult, err error) {
	defer s.masked(&reply, &err)
	var answers []answer
	for k, v := range req.Answers {
		answers = append(answers, answer{key: k, value: v})
	}
	for k, v := range req.Secrets {
		if _, dup := req.Answers[k]; dup {
			return nil, calls.Errorf(calls.ErrBadInput, "give each field one answer", "%q is both an answer and a secret", k)
		}
		answers = append(answers, answer{key: k, value: v, secret: true})
	}
	if len(answers) == 0 {
		return nil, calls.Errorf(calls.ErrBadInput, "give answers by key or label: {\"email\": \"ann@example.com\"} ("+calls.Cmd("form")+" lists the keys)", "no answers given")
	}
	sort.Slice(answers, func(i, j int) bool { return answers[i].key < answers[j].key })
	// Before the first key: every output masks them from now on
	// (registry.go), whatever the page echoes of them.
	for k, v := range req.Secrets {
		s.register(k, v)
	}
	t, ctx, end, err := s.enter(ctx, usePage)
	if err != nil {
		return nil, err
	}
	defer end(&err)
	if d := t.pendingDialog(); d != nil {
		return nil, calls.Errorf(calls.ErrNotInteractable, "answer it first: "+calls.Cmd("dialog accept|dismiss"), "%s is open (%q)", d.Named(), d.Message)
	}
	// The page's own sends are held from the first write to the last.
	// It lingers for the sends of out-of-process frames only when a field
	// of one was written (sendgate.go).
	inFrames := new(bool)
	for _, a := range answers {
		s.log.addEntered(a.key, a.value) // a send that carries it commits (sendclass.go)
	}
	stop, err := t.watchSendsListed(ctx, "", "", func() bool { return *inFrames && s.browser.hasFrames(t.id) })
	if err != nil {
		return nil, err
	}
	if err := s.browser.watchAll(ctx, +1); err != nil {
		stop()
		return nil, err
	}
	defer s.browser.watchAll(context.WithoutCancel(ctx), -1)
	res, err := s.fillForm(ctx, t, answers, req, inFrames)
	if err == nil {
		// A save the fill's own change starts later (a debounced
		// autosave) is held too: the gate stays until the page is quiet.
		t.awaitQuiet(ctx, fillQuiet, fillQuietMax)
	}
	held, passed := stop()
	if err != nil {
		return nil, err
	}
	for _, h := range held {
		res.Stopped = append(res.Stopped, h.String())
	}
	for _, h := range passed {
		res.Chatter = append(res.Chatter, h.String())
	}
	if len(held) > 0 {
		res.NeedsPerson = append(res.NeedsPerson, fmt.Sprintf("the page tried to send the form %d time(s) while it was filled; it was stopped", len(held)))
	}
	return res, nil
}

func (s *Session) fillForm(ctx context.Context, t *tab, answers []answer, req calls.FormFillRequest, inFrames *bool) (*calls.FormFillResult, error) {
	var h *hand.Hand
	if req.Hand {
		h = t.handFor(true)
	}
	rounds := req.Rounds
	if rounds <= 0 {
		rounds = defaultFormRounds
	}
	first, err := s.scanForm(ctx, t)
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
	typed := map[string]answer{}   // the answer each written field took
	for round := 1; round <= rounds && len(pending) > 0; round++ {
		if round > 1 {
			if sc, err = s.scanForm(ctx, t); err != nil {
				return nil, err
			}
		}
		res.Rounds = round
		progressed := false
		// Copies the answers name that the page does not show yet are
		// added first, before any answer of the round is written.
		next, pressed, err := s.addCopies(ctx, t, sc, pending, whyCopy, h)
		if err != nil {
			return nil, err
		}
		if pressed {
			progressed = true
			pending = append(pending, s.retypeLost(next, done, typed, before, res)...)
			sc = next
		}
		var left []answer
		type job struct {
			at int
			f  *formField
			a  answer
		}
		var jobs []job
		taken := map[string]bool{}
		for _, a := range pending {
			f, ambiguous := sc.match(a.key)
			if f == nil {
				why[a.key] = "no field takes this answer"
				if ambiguous {
					why[a.key] = "several fields answer to it: use its key (waymark form lists them)"
				} else if w := whyCopy[a.key]; w != "" {
					why[a.key] = w
				}
				left = append(left, a)
				continue
			}
			if _, twice := done[f.Key]; twice || taken[f.Key] {
				why[a.key] = "another answer is for the same field (" + f.Key + ")"
				left = append(left, a)
				continue
			}
			taken[f.Key] = true
			jobs = append(jobs, job{at: slices.Index(sc.fields, f), f: f, a: a})
		}
		// In the page's order, as a person goes down the form.
		sort.SliceStable(jobs, func(i, j int) bool { return jobs[i].at < jobs[j].at })
		for _, j := range jobs {
			done[j.f.Key] = s.fillField(ctx, t, j.f, j.a, h)
			typed[j.f.Key] = j.a
			if j.f.el.tid != "" {
				*inFrames = true
			}
			progressed = true
		}
		pending = left
		if !progressed {
			break
		}
	}
	final, err := s.scanForm(ctx, t)
	if err != nil {
		return nil, err
	}
	res.URL, res.Errors = shownURL(final.url), final.errors
	for _, a := range pending {
		res.Unmatched = append(res.Unmatched, a.key)
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
	s.rememberFormPage(final.form())
	return res, nil
}

// match finds the field an answer names: by key, else by key or label
// written another way; several fields with the label match none
// (ambiguous is then set): never a near one.
func (sc *formScan) match(key string) (f *formField, ambiguous bool) {
	for _, x := range sc.fields {
		if x.Key == key {
			return x, false
		}
	}
	want := form.FoldKey(key)
	var found []*formField
	for _, x := range sc.fields {
		if form.FoldKey(x.Key) == want || form.FoldKey(x.Label) == want {
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
func (s *Session) fillField(ctx context.Context, t *tab, f *formField, a answer, h *hand.Hand) *calls.FilledField {
	ff := &calls.FilledField{Key: f.Key, Label: f.Label, Kind: f.Kind, Ref: f.Ref, Before: f.Value, Answered: true}
	if f.Disabled {
		ff.Error = "the field is disabled"
		return ff
	}
	if a.secret {
		f.secret = true
		s.markSecret(&f.el, a.key)
		if f.input != nil {
			s.markSecret(f.input, a.key)
		}
	}
	value := a.value
	for try := 1; try <= 2; try++ {
		ff.Tries = try
		want, err := s.writeField(ctx, t, f, value, h)
		got, pageErr := f.readBack(ctx)
		switch {
		case err != nil:
			ff.Error = form.ErrText(err)
		case pageErr != "":
			ff.Error = secret.Redact(pageErr)
		case !form.SameValue(f.Kind, f.Format, want, got):
			ff.Error = "the field holds something else after the write"
		default:
			ff.ReadBack, ff.Error = true, ""
			ff.After = shownValue(f, got)
			return ff
		}
		ff.After = shownValue(f, got)
		next, ok := form.Retry(&f.FormField, a.value, pageErr)
		if !ok {
			break
		}
		value = next
	}
	return ff
}

// writeField writes value into the field as its kind needs and returns
// what the field should hold after.
func (s *Session) writeField(ctx context.Context, t *tab, f *formField, value string, h *hand.Hand) (string, error) {
	el := &f.el
	timeout := defaultActTimeout
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
		return value, el.fill(ctx, value, timeout, h)
	case calls.FieldDate:
		if browserDate(f.typ) {
			v, err := form.Value(f.typ, value)
			if err != nil {
				return "", err
			}
			return v, el.fill(ctx, value, timeout, h)
		}
		if f.readonly {
			return value, s.pickOnCalendar(ctx, t, f, value, h)
		}
		v := value
		if f.Format != "" {
			if y, m, d, err := form.ParseDate(value); err == nil {
				v = form.FormatDate(f.Format, y, m, d)
			}
		}
		return v, el.fill(ctx, v, timeout, h)
	case calls.FieldSelect:
		var res struct {
			Error    string   `json:"error"`
			Selected []string `json:"selected"`
		}
		if err := el.callOn(ctx, jsSelectWords, &res, value); err != nil {
			return "", err
		}
		if res.Error != "" {
			return "", calls.Errorf(calls.ErrBadInput, "options: "+quoteList(f.Options, 12), "%s", res.Error)
		}
		return strings.Join(res.Selected, ", "), nil
	case calls.FieldCheckbox:
		on, ok := form.Truthy(value)
		if !ok {
			return "", calls.Errorf(calls.ErrBadInput, `answer a checkbox with "true" or "false"`, "a checkbox takes true or false")
		}
		return strconv.FormatBool(on), s.check(ctx, t, el, on, h)
	case calls.FieldRadio:
		i := form.PickOption(f.Options, value, false)
		if i < 0 || i >= len(f.opts) {
			return "", calls.Errorf(calls.ErrBadInput, "options: "+quoteList(f.Options, 12), "no option of the group is the answer")
		}
		return f.Options[i], s.check(ctx, t, &f.opts[i], true, h)
	case calls.FieldTypeahead:
		if len(f.Options) > 0 {
			// A <datalist>: the browser's own list, which no click
			// reaches; the option that is the answer is typed whole.
			i := form.PickOption(f.Options, value, true)
			if i < 0 {
				return "", calls.Errorf(calls.ErrNoMatch, "options: "+quoteList(f.Options, 12), "no option of the list is the answer")
			}
			return f.Options[i], el.fill(ctx, f.Options[i], timeout, h)
		}
		return s.fillTypeahead(ctx, t, f, value, h)
	case calls.FieldCombobox:
		if err := s.openList(ctx, t, el, h); err != nil {
			return "", err
		}
		return s.pickListOption(ctx, t, f, value, h)
	case calls.FieldSlider:
		if f.typ == "range" {
			return value, el.fill(ctx, value, timeout, h)
		}
		return s.fillSlider(ctx, f, value)
	case calls.FieldFile:
		return s.fillFile(ctx, t, f, value)
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
func (f *formField) readBack(ctx context.Context) (string, string) {
	var st struct {
		Value string `json:"value"`
		Error string `json:"error"`
	}
	if err := f.el.callOn(ctx, jsFieldState(), &st, f.Kind, f.Kind != calls.FieldSlider); err != nil {
		return "", ""
	}
	return st.Value, st.Error
}
