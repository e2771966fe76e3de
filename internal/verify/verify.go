// Package verify is the one checker of facts about a page: that a text is
// shown, that an element is there, that the URL matches a glob. A replay's
// verify and if steps ([routine.Check]), the agent loop's expected effects
// and a test plan's expect steps all decide those facts here, the same
// way: text folded ([Fold]), URLs in the one glob dialect
// ([calls.MatchURL]), elements found as a replay finds them (Find).
package verify

import (
	"context"
	"fmt"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/routine"
)

// Fold folds case, runs of white space and the outline's quoting (\" and
// \n inside names), so a check survives reflowed text and the outline's
// escapes: `Say "hi"` is shown by `- text: say \"hi\"`.
func Fold(s string) string {
	s = strings.ToLower(s)
	s = strings.NewReplacer(`\"`, `"`, `\n`, " ").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

// Shows reports whether page (an outline or a page's text) shows text,
// folded.
func Shows(page, text string) bool {
	return strings.Contains(Fold(page), Fold(text))
}

// Count is how many times page shows text, folded; 0 for no text.
func Count(page, text string) int {
	t := Fold(text)
	if t == "" {
		return 0
	}
	return strings.Count(Fold(page), t)
}

// Page is what a check reads of a page (a *driver.Session does it).
type Page interface {
	Snapshot(ctx context.Context, req calls.SnapshotRequest) (*calls.Snapshot, error)
	Find(ctx context.Context, req calls.FindRequest) (*calls.Resolution, error)
	Get(ctx context.Context, req calls.GetRequest) (*calls.GetResult, error)
}

// Options say how a check reads and reports.
type Options struct {
	// Row, when not nil, is the row of an each whose positional elements
	// are taken from it.
	Row *int
	// Redact hides secret values in what a check reports; nil: none.
	Redact func(string) string
}

// Check decides c once on the page: every part given (text, element, url)
// must hold. Variables in c must be filled in already. It returns whether
// c holds and what was seen: on success the parts that held, else the
// first that did not.
func Check(ctx context.Context, p Page, c *routine.Check, o Options) (ok bool, detail string, err error) {
	redact := o.Redact
	if redact == nil {
		redact = func(s string) string { return s }
	}
	var seen []string
	if c.Text != "" {
		snap, err := p.Snapshot(ctx, calls.SnapshotRequest{Full: true, Unseen: true})
		if err != nil {
			return false, "", err
		}
		// The session shows a value typed as a secret as its mark: the
		// mark of the text is the text there.
		if (Shows(snap.Text, c.Text) || (o.Redact != nil && Shows(snap.Text, redact(c.Text)))) == c.Absent {
			if c.Absent {
				return false, fmt.Sprintf("the page shows %q", redact(c.Text)), nil
			}
			return false, fmt.Sprintf("the page does not show %q (it is %s %q)", redact(c.Text), routine.PagePath(snap.URL), snap.Title), nil
		}
		seen = append(seen, fmt.Sprintf("text %q %s", redact(c.Text), map[bool]string{true: "absent", false: "shown"}[c.Absent]))
	}
	if c.Element != nil {
		req := calls.FindRequest{Locator: c.Element.Locator, Fingerprint: c.Element.Fingerprint}
		if c.Element.Positional && o.Row != nil {
			req.Positional, req.Row = true, *o.Row
		}
		res, err := p.Find(ctx, req)
		if err != nil {
			return false, "", err
		}
		present := res.Status == calls.Found || res.Status == calls.Moved
		what := c.Element.Describe()
		if present == c.Absent {
			if c.Absent {
				return false, fmt.Sprintf("%s is on the page", what), nil
			}
			why := res.Reason
			if why == "" {
				why = res.Status
			}
			return false, fmt.Sprintf("%s is not on the page (%s)", what, why), nil
		}
		seen = append(seen, fmt.Sprintf("%s %s", what, map[bool]string{true: "absent", false: "present"}[c.Absent]))
	}
	if c.URL != "" {
		got, err := p.Get(ctx, calls.GetRequest{What: "url"})
		if err != nil {
			return false, "", err
		}
		if !calls.MatchURL(c.URL, got.Value) {
			return false, fmt.Sprintf("the URL is %s, not %s", redact(got.Value), redact(c.URL)), nil
		}
		seen = append(seen, "url "+redact(got.Value))
	}
	return true, strings.Join(seen, "; "), nil
}
