package driver

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/files"
	"github.com/waymark-dev/waymark/driver/internal/form"
	"github.com/waymark-dev/waymark/internal/hand"
	"github.com/waymark-dev/waymark/internal/keys"
)

// The widgets a form fill works as a person does: a list that opens,
// a typeahead that answers typing, an ARIA slider, a drop zone.

// check sets a checkbox or radio as a person does: a click on it, or, when
// the page hides the box itself and shows a styled one (a switch), a click
// on its label.
func (s *Session) check(ctx context.Context, t *tab, el *element, on bool, h *hand.Hand) error {
	err := el.setChecked(ctx, on, checkWait, h)
	if err == nil || !errors.Is(err, calls.ErrNotInteractable) && !errors.Is(err, calls.ErrTimeout) && !strings.Contains(err.Error(), "visible") {
		return err
	}
	labels := el.nodesOn(ctx, `function () { const l = (this.labels && this.labels[0]) || this.closest('label'); return l ? [l] : []; }`)
	if len(labels) != 1 {
		return err
	}
	label := *el
	label.node, label.what = labels[0], "its label"
	p, lerr := label.actionable(ctx, checkVisible|checkHit, defaultActTimeout)
	if lerr != nil {
		return err
	}
	if err := t.press(ctx, p, input.MouseButtonLeft, 1, h); err != nil {
		return err
	}
	var state struct {
		Checked bool `json:"checked"`
	}
	if err := el.callOn(ctx, jsCheckedState, &state); err != nil {
		return err
	}
	if state.Checked != on {
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
func (s *Session) openList(ctx context.Context, t *tab, el *element, h *hand.Hand) error {
	var submits bool
	if err := el.callOn(ctx, `function () { return this.tagName === 'BUTTON' && this.type === 'submit' && !!this.form; }`, &submits); err != nil {
		return err
	}
	if submits {
		if err := el.focus(ctx); err != nil {
			return err
		}
		evs, _ := keys.Press("ArrowDown")
		return keys.Dispatch(ctx, t.sess, evs)
	}
	p, err := el.actionable(ctx, checkVisible|checkEnabled|checkHit, defaultActTimeout)
	if err != nil {
		return err
	}
	return t.press(ctx, p, input.MouseButtonLeft, 1, h)
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
func (s *Session) pickListOption(ctx context.Context, t *tab, f *formField, value string, h *hand.Hand) (string, error) {
	deadline := time.Now().Add(optionWait)
	var seen []string
	for {
		var opts []string
		if err := f.el.callOn(ctx, jsListOptions(), &opts, -1); err != nil {
			return "", err
		}
		seen = opts
		if i := form.PickOption(opts, value, true); i >= 0 {
			nodes := f.el.nodesOn(ctx, strings.Replace(jsListOptions(), "function (pick) {", "function () { const pick = "+strconv.Itoa(i)+";", 1))
			if len(nodes) != 1 {
				return "", calls.Errorf(calls.ErrStaleRef, "read the form again", "the option went away before it was chosen")
			}
			o := f.el
			o.node, o.what = nodes[0], "the option"
			p, err := o.actionable(ctx, checkVisible|checkHit, defaultActTimeout)
			if err != nil {
				return "", err
			}
			if err := t.press(ctx, p, input.MouseButtonLeft, 1, h); err != nil {
				return "", err
			}
			return opts[i], nil
		}
		if time.Now().After(deadline) {
			break
		}
		if err := sleep(ctx, 50*time.Millisecond); err != nil {
			return "", err
		}
	}
	hint := "the answer must be one of its options, or the start of one"
	if len(seen) > 0 {
		hint = "options shown: " + quoteList(seen, 8)
	}
	return "", calls.Errorf(calls.ErrNoMatch, hint, "no option shown is the answer (waited %s)", optionWait)
}

// fillTypeahead types the start of the answer, waits for the options the
// page brings up and clicks the one that is the answer; when none is,
// it types the rest and looks again.
func (s *Session) fillTypeahead(ctx context.Context, t *tab, f *formField, value string, h *hand.Hand) (string, error) {
	el := &f.el
	if err := el.fill(ctx, "", defaultActTimeout, h); err != nil {
		return "", err
	}
	r := []rune(value)
	cut := min(len(r), 3)
	if err := el.typeText(ctx, string(r[:cut]), defaultActTimeout, h); err != nil {
		return "", err
	}
	got, err := s.pickListOption(ctx, t, f, value, h)
	if err == nil || cut == len(r) || !errors.Is(err, calls.ErrNoMatch) {
		return got, err
	}
	if err := el.typeText(ctx, string(r[cut:]), defaultActTimeout, h); err != nil {
		return "", err
	}
	return s.pickListOption(ctx, t, f, value, h)
}

// fillSlider moves an ARIA slider with the arrow keys until it shows the
// answer.
func (s *Session) fillSlider(ctx context.Context, f *formField, value string) (string, error) {
	want, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
	if err != nil {
		return "", calls.Errorf(calls.ErrBadInput, "answer a slider with a number within "+f.Format, "a slider takes a number")
	}
	if err := f.el.focus(ctx); err != nil {
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
		evs, _ := keys.Press(key)
		if err := f.el.focus(ctx); err != nil {
			return "", err
		}
		if err := keys.Dispatch(ctx, f.el.tab.sess, evs); err != nil {
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
// Uploads keep their rules: only files under the upload roots.
func (s *Session) fillFile(ctx context.Context, t *tab, f *formField, value string) (string, error) {
	files, err := files.CheckUploads([]string{value}, s.browser.opts.UploadRoots)
	if err != nil {
		return "", err
	}
	name := filepath.Base(files[0])
	setInput := func(in *element) error {
		_, err := cdpCallEl(ctx, in, dom.SetFileInputFiles, dom.SetFileInputFilesParams{Files: files, BackendNodeID: in.node})
		return err
	}
	if f.input == nil && f.typ == "file" {
		return name, setInput(&f.el)
	}
	p, err := f.el.actionable(ctx, checkVisible, defaultActTimeout)
	if err != nil {
		return "", err
	}
	data := &input.DragData{Items: []*input.DragDataItem{}, Files: files, DragOperationsMask: 1}
	for _, typ := range []input.DispatchDragEventType{input.DispatchDragEventTypeDragEnter, input.DispatchDragEventTypeDragOver, input.DispatchDragEventTypeDrop} {
		if _, err := call(ctx, t, input.DispatchDragEvent, input.DispatchDragEventParams{Type: typ, X: p.X, Y: p.Y, Data: data}); err != nil {
			return "", browserErr(err)
		}
	}
	if got, _ := f.readBack(ctx); !strings.Contains(got, name) && f.input != nil {
		return name, setInput(f.input)
	}
	return name, nil
}
