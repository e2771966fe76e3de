package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/chromedp/cdproto/input"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/form"
	"github.com/waymark-dev/waymark/internal/hand"
)

// A date field that takes no typing (read-only, with a calendar beside
// it) is filled as a person does: open its calendar, go to the month,
// click the day. The day is found by the date its cell says (aria-label,
// title, data-date: "Monday, 1 March 2027", "2027-03-01"), else by its
// number under the month the calendar shows.

// jsCalendar lists the open calendar: its day cells, the month it shows,
// and its next and previous buttons; with pick set it returns the one
// element named instead ("cell", "next", "prev" and an index).
var jsCalendar = sync.OnceValue(func() string {
	return `function (pick, index) {
  const F = ` + jsForm + `;
  const box = 'dialog, [role=dialog], [role=grid], [class*=calendar], [class*=picker], table';
  const cals = Array.from(document.querySelectorAll(box)).filter(F.visible).filter(c => c !== this && !c.contains(this));
  const cal = cals.find(c => c.matches('[role=dialog], dialog')) || cals[0];
  if (!cal) return pick ? [] : { cells: [], header: '' };
  const cells = Array.from(cal.querySelectorAll('[data-date], [role=gridcell], td, button')).filter(F.visible)
    .filter(c => !c.querySelector('[data-date], [role=gridcell], td, button'));
  const buttons = Array.from(cal.querySelectorAll('button, [role=button], a')).filter(F.visible);
  const words = b => F.clean(b.getAttribute('aria-label') || b.getAttribute('title') || b.textContent);
  const next = buttons.findIndex(b => /next|later|forward|[›»>→]/i.test(words(b)));
  const prev = buttons.findIndex(b => /prev|earlier|back|[‹«<←]/i.test(words(b)));
  if (pick === 'cell') return [cells[index]];
  if (pick === 'next') return next >= 0 ? [buttons[next]] : [];
  if (pick === 'prev') return prev >= 0 ? [buttons[prev]] : [];
  const head = cal.querySelector('[aria-live], caption, h1, h2, h3, h4, [class*=month], [class*=title]');
  return {
    cells: cells.map(c => ({ label: F.clean(c.getAttribute('data-date') || c.getAttribute('aria-label') || c.getAttribute('title') || ''), text: F.clean(c.textContent) })),
    header: head ? F.clean(head.textContent) : F.clean(cal.getAttribute('aria-label') || ''),
  };
}`
})

// weekdayRE is a weekday name before a written date: "Monday, ".
var weekdayRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+`)
})

// cellDate reads the date a day cell names, if it names a whole one.
func cellDate(label string) (y, m, d int, ok bool) {
	label = weekdayRE().ReplaceAllString(strings.TrimSpace(label), "")
	y, m, d, err := form.ParseDate(label)
	return y, m, d, err == nil
}

// pickOnCalendar opens the field's calendar and clicks the day.
func (s *Session) pickOnCalendar(ctx context.Context, t *tab, f *formField, value string, h *hand.Hand) error {
	y, m, d, err := form.ParseDate(value)
	if err != nil {
		return calls.Errorf(calls.ErrBadInput, "write the date as 2027-03-01 or 1 March 2027", "a date field cannot take that value: %v", err)
	}
	click := func(el *element) error {
		p, err := el.actionable(ctx, checkVisible|checkHit, defaultActTimeout)
		if err != nil {
			return err
		}
		return t.press(ctx, p, input.MouseButtonLeft, 1, h)
	}
	if err := click(&f.el); err != nil {
		return err
	}
	want := y*12 + m
	for range 60 {
		var cal struct {
			Cells []struct {
				Label string `json:"label"`
				Text  string `json:"text"`
			} `json:"cells"`
			Header string `json:"header"`
		}
		if err := f.el.callOn(ctx, jsCalendar(), &cal, "", 0); err != nil {
			return err
		}
		shown, day := 0, -1
		for i, c := range cal.Cells {
			if cy, cm, cd, ok := cellDate(c.Label); ok {
				if cy == y && cm == m && cd == d {
					day = i
					break
				}
				if shown == 0 {
					shown = cy*12 + cm
				}
			}
		}
		if day < 0 && shown == 0 {
			// Cells say only their day: the header says the month.
			if mon, err := form.ParseMonth(cal.Header); err == nil {
				my, mm := form.Atoi(mon[:4]), form.Atoi(mon[5:])
				shown = my*12 + mm
				if shown == want {
					for i, c := range cal.Cells {
						if c.Text == strconv.Itoa(d) {
							day = i
							break
						}
					}
				}
			}
		}
		if day >= 0 {
			nodes := f.el.nodesOn(ctx, calendarPick("cell", day))
			if len(nodes) != 1 {
				return calls.Errorf(calls.ErrStaleRef, "fill it by hand", "the day went away before it was clicked")
			}
			cell := f.el
			cell.node, cell.what = nodes[0], "the day"
			return click(&cell)
		}
		if shown == 0 {
			return calls.Errorf(calls.ErrNotInteractable, "fill it by hand", "no calendar opened that says its month")
		}
		dir := "next"
		if shown > want {
			dir = "prev"
		}
		nodes := f.el.nodesOn(ctx, calendarPick(dir, 0))
		if len(nodes) != 1 {
			return calls.Errorf(calls.ErrNotInteractable, "fill it by hand", "the calendar has no %s-month button", dir)
		}
		btn := f.el
		btn.node, btn.what = nodes[0], "the calendar's "+dir+" button"
		if err := click(&btn); err != nil {
			return err
		}
	}
	return calls.Errorf(calls.ErrNotInteractable, "fill it by hand", "the calendar did not reach the month in 60 steps")
}

// calendarPick is jsCalendar returning one element.
func calendarPick(what string, index int) string {
	w, _ := json.Marshal(what)
	return fmt.Sprintf("function () { return (%s).call(this, %s, %d); }", jsCalendar(), w, index)
}
