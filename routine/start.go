package routine

import (
	"net/url"

	"github.com/waymark-dev/waymark/calls"
)

// The start page: a routine replays in a session of its own, whose tab
// opens on about:blank, so a routine whose first step acts on a page it
// never opened stops there (issue 28). Both recorders (recording by hand
// from the page the tab is on, and the agent loop from the page its task
// began on) give a routine its start page here, and `record stop` and
// replay ask [HasStartPage] the same question.

// StartStep is the goto that opens the page a recording began on, info
// being that page as the tab shows it (its notices those of its look):
// false when the tab was on no page worth going back to (about:blank, a
// browser error page, nothing), where a recording begins with its own
// open.
func StartStep(info *calls.PageInfo, notices []calls.Notice) (Step, bool) {
	if info == nil || !StartablePage(info.URL) {
		return Step{}, false
	}
	st := GotoStep(info.URL, info, notices)
	st.Instruction = "open the page the recording began on"
	return st, true
}

// StartablePage reports whether a routine can begin by opening u: a page
// of the web or a local file, not about:blank or a browser page.
func StartablePage(u string) bool {
	p, err := url.Parse(u)
	if err != nil {
		return false
	}
	switch p.Scheme {
	case "http", "https", "file":
		return true
	}
	return false
}

// HasStartPage reports whether steps begin by opening a page: a routine
// that does not acts first on whatever page the tab shows, which in a
// session of its own is about:blank. An empty routine needs none.
func HasStartPage(steps []Step) bool {
	return len(steps) == 0 || steps[0].Kind == KindGoto
}

// NoStartPageHint says how to give a routine its start page.
func NoStartPageHint() string {
	return `add a first step {"kind": "goto", "url": "…"} with the page it starts on, or record it again starting on that page (` + calls.Cmd("open URL") + `, then ` + calls.Cmd("record start") + `)`
}
