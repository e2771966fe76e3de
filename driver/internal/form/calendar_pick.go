package form

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/elem"
	"github.com/waymark-dev/waymark/internal/hand"
)

// A read-only date field is filled on its calendar: which cell or button
// to click is CalendarStep's; this reads the open calendar and clicks, as
// a hand does, through the core's elements.

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

// pickOnCalendar opens the field's calendar and clicks the day.
func pickOnCalendar(ctx context.Context, f *field, value string, h *hand.Hand) error {
	y, m, d, err := ParseDate(value)
	if err != nil {
		return calls.Errorf(calls.ErrBadInput, "write the date as 2027-03-01 or 1 March 2027", "a date field cannot take that value: %v", err)
	}
	click := func(el elem.Element) error { return el.Click(ctx, elem.Visible|elem.Hit, elem.DefaultTimeout, h) }
	if err := click(f.el); err != nil {
		return err
	}
	for range 60 {
		var cal Calendar
		if err := f.el.CallOn(ctx, jsCalendar(), &cal, "", 0); err != nil {
			return err
		}
		day, dir, err := CalendarStep(cal, y, m, d)
		if err != nil {
			return err
		}
		if day >= 0 {
			nodes := f.el.NodesOn(ctx, calendarPick("cell", day))
			if len(nodes) != 1 {
				return calls.Errorf(calls.ErrStaleRef, "fill it by hand", "the day went away before it was clicked")
			}
			return click(nodes[0].Named("the day"))
		}
		nodes := f.el.NodesOn(ctx, calendarPick(dir, 0))
		if len(nodes) != 1 {
			return calls.Errorf(calls.ErrNotInteractable, "fill it by hand", "the calendar has no %s-month button", dir)
		}
		if err := click(nodes[0].Named("the calendar's " + dir + " button")); err != nil {
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
