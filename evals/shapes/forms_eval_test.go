//go:build evals

package shapes

import (
	"context"
	"fmt"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
)

// runForms fills each form as an agent does: read the ledger (form),
// give the answers by the ledger's keys (form fill), press the step's
// button, and again on the next step; then counts, at the server, the
// fields whose value arrived as the truth says. A case is right when
// every field arrived right.
func runForms(t *testing.T, cases []*FormCase, res *results) {
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			tf := &tally{}
			defer res.add("forms", tf)
			tf.cases++
			tf.fields += len(c.Fields)
			srv := httptest.NewServer(c.Handler())
			defer srv.Close()
			s, ctx := drivertest.Session(t, "shapes-"+c.Name, 120*time.Second)
			if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + "/"}); err != nil {
				t.Fatal(err)
			}
			checkATS(t, c, s, ctx, res)
			pending := map[int]bool{}
			for i := range c.Fields {
				pending[i] = true
			}
			var notes []string
			for step, button := range c.Steps {
				ledger, err := s.Form(ctx, calls.FormRequest{})
				if err != nil {
					res.miss("forms", c.Name, c.Traits, "form (step %d): %v", step+1, err)
					return
				}
				answers, by := map[string]string{}, map[string]int{}
				for i := range c.Fields {
					if !pending[i] {
						continue
					}
					if key := keyFor(ledger, c.Fields[i]); key != "" {
						answers[key], by[key] = c.Fields[i].Value, i
					}
				}
				if len(answers) > 0 {
					out, err := s.FillForm(ctx, calls.FormFillRequest{Answers: answers})
					if err != nil {
						notes = append(notes, fmt.Sprintf("fill (step %d): %v", step+1, err))
					} else {
						for key, i := range by {
							if !contains(out.Unmatched, key) {
								delete(pending, i)
							}
						}
						if len(out.Unmatched) > 0 {
							notes = append(notes, fmt.Sprintf("step %d: no field took %s", step+1, strings.Join(out.Unmatched, ", ")))
						}
					}
				}
				if _, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "role=button[name=" + strconv.Quote(button) + "]", Submits: "allow"}); err != nil {
					res.miss("forms", c.Name, c.Traits, "press %q (step %d): %v; %s", button, step+1, err, strings.Join(notes, "; "))
					return
				}
			}
			var got map[string]string
			for range 100 {
				if g, n := c.Received(); n > 0 {
					got = g
					break
				}
				time.Sleep(50 * time.Millisecond)
			}
			if got == nil {
				res.miss("forms", c.Name, c.Traits, "nothing reached the server; %s", strings.Join(notes, "; "))
				return
			}
			back := 0
			var wrong []string
			for _, f := range c.Fields {
				v := got[f.Name]
				if v == f.Sent {
					back++
					continue
				}
				wrong = append(wrong, fmt.Sprintf("%s=%q (want %q)", f.Name, v, f.Sent))
				for _, o := range c.Fields {
					if o.Name != f.Name && len(o.Sent) > 3 && v == o.Sent && o.Sent != f.Sent {
						t.Errorf("%s received %q, the answer for %s", f.Name, v, o.Name)
					}
				}
			}
			tf.fieldsBack += back
			if back == len(c.Fields) {
				tf.right++
				return
			}
			res.miss("forms", c.Name, c.Traits, "%d of %d fields read back at the server; %s; %s", back, len(c.Fields), strings.Join(wrong, ", "), strings.Join(notes, "; "))
		})
	}
}

var copyKey = regexp.MustCompile(`^(.+)\[(\d+)\]\.(.+)$`)

// keyFor is the ledger's key for an answer, as an agent reading the
// ledger picks it: a plain field by its label; a field of a repeating
// section by the section's keys (their first copy's number, 0 or 1, is
// the ledger's to say), or, when the ledger shows the section as no
// repeating one, its first copy by the label and the others as issue 29
// writes them (sea_time[1].vessel). "" when the ledger does not show it
// (a later step's field).
func keyFor(ledger *calls.Form, f FormField) string {
	if f.Section != "" {
		base := -1
		for _, lf := range ledger.Fields {
			if m := copyKey.FindStringSubmatch(lf.Key); m != nil && m[1] == f.Section && m[3] == f.Key {
				if n, _ := strconv.Atoi(m[2]); base < 0 || n < base {
					base = n
				}
			}
		}
		if base >= 0 {
			return fmt.Sprintf("%s[%d].%s", f.Section, base+f.Copy, f.Key)
		}
		if f.Copy > 0 {
			return fmt.Sprintf("%s[%d].%s", f.Section, f.Copy, f.Key)
		}
	}
	for _, lf := range ledger.Fields {
		if normLabel(lf.Label) == normLabel(f.Label) && !lf.Disabled {
			return lf.Key
		}
	}
	return ""
}

func normLabel(s string) string {
	s = strings.ToLower(strings.NewReplacer("*", "", "✱", "", ":", "").Replace(s))
	return strings.Join(strings.Fields(s), " ")
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// checkATS counts, for a page made like an applicant tracking system's,
// whether the look's first line names it (issue 29): a figure of its own.
func checkATS(t *testing.T, c *FormCase, s *driver.Session, ctx context.Context, res *results) {
	ats := ""
	for _, tr := range c.Traits {
		if name, ok := strings.CutPrefix(tr, "ats-"); ok {
			ats = name
		}
	}
	if ats == "" {
		return
	}
	ta := &tally{cases: 1}
	defer res.add("ats", ta)
	look, err := s.Snapshot(ctx, calls.SnapshotRequest{})
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(look.Text, "\n")
	if strings.Contains(strings.ToLower(first), ats) {
		ta.right++
		return
	}
	res.miss("forms", c.Name, c.Traits, "the look's first line does not name %s: %q", ats, first)
}
