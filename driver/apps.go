package driver

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/waymark-dev/waymark/apps"
)

// Knowing the application (issue 19): the apps the URL allows (the
// session's table: the configuration's [[apps]], then the built-in ones)
// are told apart by their markers, all checked in one script in our
// isolated world. A marker the page's document cannot parse counts as
// absent.

// jsMarkers reports which of the selectors match in the document.
const jsMarkers = `((sels) => sels.map(s => { try { return !!document.querySelector(s); } catch (e) { return false; } }))`

// appTable is the session's table of applications.
func (s *Session) appTable() []apps.App { return apps.With(s.browser.opts.Apps) }

// detectApp returns the application the tab shows, or nil. A page that
// cannot be asked (gone, busy) shows none.
func (s *Session) detectApp(ctx context.Context, t *tab) *apps.App {
	cands := apps.Candidates(s.appTable(), t.url())
	if len(cands) == 0 {
		return nil
	}
	var sels []string
	for _, a := range cands {
		if a.Marker != "" {
			sels = append(sels, a.Marker)
		}
	}
	found := map[string]bool{}
	if len(sels) > 0 {
		arg, _ := json.Marshal(sels)
		var got []bool
		if err := t.evalWorld(ctx, t.sess, t.mainFrame(), fmt.Sprintf("%s(%s)", jsMarkers, arg), &got); err != nil {
			return nil
		}
		for i, ok := range got {
			if i < len(sels) {
				found[sels[i]] = ok
			}
		}
	}
	return apps.Pick(cands, func(sel string) bool { return found[sel] })
}
