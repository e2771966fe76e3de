package form

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/elem"
	"github.com/waymark-dev/waymark/internal/hand"
	"github.com/waymark-dev/waymark/internal/wait"
)

// The widgets a form fill works as a person does: a list that opens,
// a typeahead that answers typing, an ARIA slider, a drop zone. Every
// click and key is the core's (elem.Element, View).

// check sets a checkbox or radio as a person does: a click on it, or, when
// the page hides the box itself and shows a styled one (a switch), a click
// on its label.
func check(ctx context.Context, v View, el elem.Element, on bool, h *hand.Hand) error {
	err := el.SetChecked(ctx, on, checkWait, h)
	if err == nil || !errors.Is(err, calls.ErrNotInteractable) && !errors.Is(err, calls.ErrTimeout) && !strings.Contains(err.Error(), "visible") {
		return err
	}
	labels := el.NodesOn(ctx, `function () { const l = (this.labels && this.labels[0]) || this.closest('label'); return l ? [l] : []; }`)
	if len(labels) != 1 {
		return err
	}
	label := labels[0].Named("its label")
	p, lerr := label.Where(ctx, elem.Visible|elem.Hit, elem.DefaultTimeout)
	if lerr != nil {
		return err
	}
	if err := v.PressAt(ctx, p, h); err != nil {
		return err
	}
	_, checked, err := el.Checked(ctx)
	if err != nil {
		return err
	}
	if checked != on {
		return calls.Errorf(calls.ErrNotInteractable, "set it by hand", "a click on its label did not change it")
	}
	return nil
}

// checkWait is how long a box that cannot be clicked is waited for
// before its label is clicked instead: a hidden one stays hidden.
const checkWait = 500 * time.Millisecond

// openList opens a list widget as a person does, with a click; one built
// on a button that would send its form (a <button> with no type) is
// opened with the down arrow instead, which sends nothing.
func openList(ctx context.Context, v View, el elem.Element, h *hand.Hand) error {
	var submits bool
	if err := el.CallOn(ctx, `function () { return this.tagName === 'BUTTON' && this.type === 'submit' && !!this.form; }`, &submits); err != nil {
		return err
	}
	if submits {
		if err := el.Focus(ctx); err != nil {
			return err
		}
		return v.PressKeys(ctx, "ArrowDown")
	}
	return el.Click(ctx, elem.Visible|elem.Enabled|elem.Hit, elem.DefaultTimeout, h)
}

// jsSelectWords chooses the option of a select whose words are the
// answer, else the one whose value is, and fires input and change as a
// person's choice does. Errors never quote the answer.
const jsSelectWords = `function (w) {
  const norm = s => (s || '').replace(/\s+/g, ' ').trim().toLowerCase();
  if (this.disabled) return { error: 'the select is disabled' };
  const opts = Array.from(this.options);
  const o = opts.find(o => norm(o.label || o.text) === norm(w)) || opts.find(o => o.value === w);
  if (!o) return { error: 'no option is the answer' };
  if (o.disabled) return { error: 'the option that is the answer is disabled' };
  for (const x of opts) x.selected = x === o;
  this.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  this.dispatchEvent(new Event('change', { bubbles: true }));
  return { selected: [(o.label || o.text).replace(/\s+/g, ' ').trim()] };
}`

// jsListOptions returns the visible options of the list a field opens:
// the one it names (aria-controls, aria-owns), else any visible option
// of the page. With pick >= 0 it returns that option's element alone.
var jsListOptions = sync.OnceValue(func() string {
	return `function (pick) {
  const F = ` + jsForm + `;
  const list = F.listOf(this);
  let opts = F.optionsIn(list, true);
  if (!list) opts = Array.from(document.querySelectorAll('[role=option]')).filter(F.visible);
  if (pick >= 0) return [opts[pick]];
  return opts.map(F.optionText);
}`
})

// pickListOption waits for the field's options and clicks the one that
// is the answer.
func pickListOption(ctx context.Context, f *field, value string, h *hand.Hand) (string, error) {
	deadline := time.Now().Add(optionWait)
	var seen []string
	for {
		var opts []string
		if err := f.el.CallOn(ctx, jsListOptions(), &opts, -1); err != nil {
			return "", err
		}
		seen = opts
		if i := PickOption(opts, value, true); i >= 0 {
			nodes := f.el.NodesOn(ctx, strings.Replace(jsListOptions(), "function (pick) {", "function () { const pick = "+strconv.Itoa(i)+";", 1))
			if len(nodes) != 1 {
				return "", calls.Errorf(calls.ErrStaleRef, "read the form again", "the option went away before it was chosen")
			}
			if err := nodes[0].Named("the option").Click(ctx, elem.Visible|elem.Hit, elem.DefaultTimeout, h); err != nil {
				return "", err
			}
			return opts[i], nil
		}
		if time.Now().After(deadline) {
			break
		}
		if err := wait.Sleep(ctx, 50*time.Millisecond); err != nil {
			return "", err
		}
	}
	hint := "the answer must be one of its options, or the start of one"
	if len(seen) > 0 {
		hint = "options shown: " + QuoteList(seen, 8)
	}
	return "", calls.Errorf(calls.ErrNoMatch, hint, "no option shown is the answer (waited %s)", optionWait)
}

// fillTypeahead types the start of the answer, waits for the options the
// page brings up and clicks the one that is the answer; when none is,
// it types the rest and looks again.
func fillTypeahead(ctx context.Context, f *field, value string, h *hand.Hand) (string, error) {
	el := f.el
	if err := el.Fill(ctx, "", elem.DefaultTimeout, h); err != nil {
		return "", err
	}
	r := []rune(value)
	cut := min(len(r), 3)
	if err := el.TypeText(ctx, string(r[:cut]), elem.DefaultTimeout, h); err != nil {
		return "", err
	}
	got, err := pickListOption(ctx, f, value, h)
	if err == nil || cut == len(r) || !errors.Is(err, calls.ErrNoMatch) {
		return got, err
	}
	if err := el.TypeText(ctx, string(r[cut:]), elem.DefaultTimeout, h); err != nil {
		return "", err
	}
	return pickListOption(ctx, f, value, h)
}

// fillSlider moves an ARIA slider with the arrow keys until it shows the
// answer.
func fillSlider(ctx context.Context, v View, f *field, value string) (string, error) {
	want, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
	if err != nil {
		return "", calls.Errorf(calls.ErrBadInput, "answer a slider with a number within "+f.Format, "a slider takes a number")
	}
	if err := f.el.Focus(ctx); err != nil {
		return "", err
	}
	read := func() (float64, error) {
		got, _ := f.readBack(ctx)
		return strconv.ParseFloat(strings.TrimSpace(got), 64)
	}
	cur, err := read()
	if err != nil {
		return "", calls.Errorf(calls.ErrNotInteractable, "set it by hand", "the slider shows no number")
	}
	for range 400 {
		if cur == want {
			break
		}
		key := "ArrowRight"
		if cur > want {
			key = "ArrowLeft"
		}
		if err := f.el.Focus(ctx); err != nil {
			return "", err
		}
		if err := v.PressKeys(ctx, key); err != nil {
			return "", err
		}
		next, err := read()
		if err != nil {
			return "", err
		}
		if next == cur || (cur < want) != (next < want) && next != want {
			break // at its end, or it steps over the answer
		}
		cur = next
	}
	return strconv.FormatFloat(want, 'f', -1, 64), nil
}

// fillFile sets a file field: a file input takes the file, a drop zone
// has it dropped on it (the way a person drags it there); a zone that
// shows nothing after the drop but holds a file input gets it there.
// Uploads keep their rules: a relative path read from dir (the caller's
// folder), only files under the upload roots (the core's check, which its
// doors make again).
func fillFile(ctx context.Context, v View, f *field, value, dir string) (string, error) {
	files, err := v.CheckUploads([]string{value}, dir)
	if err != nil {
		return "", err
	}
	name := filepath.Base(files[0])
	if f.input == nil && f.typ == "file" {
		return name, v.SetFiles(ctx, f.el, files)
	}
	p, err := f.el.Where(ctx, elem.Visible, elem.DefaultTimeout)
	if err != nil {
		return "", err
	}
	if err := v.DropFiles(ctx, p, files); err != nil {
		return "", err
	}
	if got, _ := f.readBack(ctx); !strings.Contains(got, name) && f.input != nil {
		return name, v.SetFiles(ctx, f.input, files)
	}
	return name, nil
}
