package form

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/elem"
	"github.com/waymark-dev/waymark/internal/hand"
)

// Repeating sections (issues 17 and 29). A section the page repeats, or
// shows once beside an "Add another …", is keyed by copy from its first
// one (sea_time[1].vessel; js/form.js finds them). Answers for a copy the
// page does not show yet press its adder, before any answer of the round
// is written, until the copy is there or the page adds no more; a value
// this fill typed that a press cleared is typed again. An adder that
// would send its form is never pressed.

// maxCopyPresses bounds the presses of one section's adder in one round.
const maxCopyPresses = 20

// adderWait bounds the wait for an adder to take a press: one the page
// disabled (it allows no more copies) is not waited for long.
const adderWait = time.Second

// copyKey splits "sea_time[3].vessel" into its section and copy.
func copyKey(key string) (section string, n int, ok bool) {
	open, shut := strings.Index(key, "["), strings.Index(key, "]")
	if open <= 0 || shut < open {
		return "", 0, false
	}
	n, err := strconv.Atoi(key[open+1 : shut])
	if err != nil || n < 1 {
		return "", 0, false
	}
	return key[:open], n, true
}

// copiesOf is how many copies of a section the scan shows.
func (sc *Scan) copiesOf(section string) int {
	copies := 0
	for _, f := range sc.fields {
		if _, n, ok := copyKey(f.Key); ok && f.section == section && n > copies {
			copies = n
		}
	}
	return copies
}

// adderOf is the section's adder, or nil.
func (sc *Scan) adderOf(section string) *adder {
	for i := range sc.adders {
		if sc.adders[i].section == section {
			return &sc.adders[i]
		}
	}
	return nil
}

// addCopies presses the adders the answers need and returns the scan
// after (sc if nothing was pressed). whyCopy gets, for each answer whose
// copy the page will not add, why.
func addCopies(ctx context.Context, v View, sc *Scan, pending []Answer, whyCopy map[string]string, h *hand.Hand) (*Scan, bool, error) {
	need := map[string]int{} // section → the last copy an answer names
	for _, a := range pending {
		if f, _ := sc.match(a.Key); f != nil {
			continue
		}
		if whyCopy[a.Key] != "" {
			continue // the page said it adds no more
		}
		if section, n, ok := copyKey(a.Key); ok && n > need[section] {
			need[section] = n
		}
	}
	pressed := false
	for _, section := range slices.Sorted(maps.Keys(need)) {
		for presses := 0; ; presses++ {
			have := sc.copiesOf(section)
			if have == 0 || have >= need[section] {
				break // no such section (the answer is just unmatched), or all there
			}
			reason := ""
			shows := fmt.Sprintf("the page shows %d %s of %s", have, plural(have, "copy", "copies"), section)
			ad := sc.adderOf(section)
			switch {
			case ad == nil && presses == 0:
				reason = shows + " and nothing that adds another"
			case ad == nil, ad.hidden:
				reason = shows + " and adds no more"
			case ad.submits:
				reason = fmt.Sprintf("%s; its %q would send the form, and filling never sends", shows, ad.words)
			case presses >= maxCopyPresses:
				reason = fmt.Sprintf("%s after %d presses of %q", shows, presses, ad.words)
			}
			if reason == "" {
				if err := ad.el.Click(ctx, elem.Visible|elem.Enabled|elem.Hit, adderWait, h); err != nil {
					if ctx.Err() != nil {
						return nil, false, ctx.Err()
					}
					reason = fmt.Sprintf("%s and its %q takes no press: %s", shows, ad.words, ErrText(err))
				} else {
					pressed = true
					_ = v.Quiet(ctx, 50*time.Millisecond)
					next, err := Read(ctx, v)
					if err != nil {
						return nil, false, err
					}
					sc = next
					if sc.copiesOf(section) <= have {
						reason = fmt.Sprintf("%s and its %q adds no more", shows, ad.words)
					}
				}
			}
			if reason != "" {
				for _, a := range pending {
					if sec, n, ok := copyKey(a.Key); ok && sec == section && n > sc.copiesOf(section) {
						whyCopy[a.Key] = reason
					}
				}
				break
			}
		}
	}
	return sc, pressed, nil
}

// retypeLost gives back the answers whose values a press cleared (a page
// that draws its copies anew), to be typed again, and tells the values
// typed before this fill that a press changed.
func retypeLost(sc *Scan, done map[string]*calls.FilledField, typed map[string]Answer, before map[string]string, res *calls.FormFillResult) []Answer {
	now := map[string]string{}
	for _, f := range sc.fields {
		now[f.Key] = f.Value
	}
	var again []Answer
	for _, k := range slices.Sorted(maps.Keys(done)) {
		if d := done[k]; d.ReadBack && now[k] != d.After {
			again = append(again, typed[k])
			delete(done, k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(before)) {
		note := k + ": adding a copy changed what it held"
		if v, ok := now[k]; ok && before[k] != "" && v != before[k] && typed[k].Key == "" && !slices.Contains(res.NeedsPerson, note) {
			res.NeedsPerson = append(res.NeedsPerson, note)
		}
	}
	return again
}

// plural is one or many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
