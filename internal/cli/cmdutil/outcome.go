package cmdutil

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/calls"
)

// DescribeOutcome is the one-line account of an action (with the page it
// went to, when it navigated), plus a line for each thing the agent must
// know to go on: a banner closed before it, a new tab, an open dialog, a
// download.
func DescribeOutcome(req calls.ActRequest, out calls.Outcome) string {
	var b strings.Builder
	b.WriteString(describeAct(req))
	if out.Pressed != "" { // click-at: what was under the point
		b.WriteString(" " + out.Pressed)
	}
	if n := out.NotSent.Note(); n != "" { // the browser's validation stopped the submit
		b.WriteString("; " + n)
	}
	// Where the tab is, only when the action moved it: the agent knows the
	// page it acted on, and repeating it costs tokens on every fill.
	if out.Navigated && out.URL != "" {
		b.WriteString(" → ")
		b.WriteString(DescribePage(calls.PageInfo{URL: calls.ShortURL(out.From, out.URL), Title: out.Title}))
	}
	if out.Closed != "" { // what was in the way, closed without asking (issue 7)
		b.WriteString("\nbefore acting, " + out.Closed)
	}
	if n := calls.ChatterNote(out.Chatter); n != "" { // sends the gate let go (issue 27)
		b.WriteString("\n" + n)
	}
	for _, t := range out.NewTabs {
		fmt.Fprintf(&b, "\nnew tab [%d] %s — switch with \"waymark tab switch %d\"", t.Index, DescribePage(calls.PageInfo{URL: t.URL, Title: t.Title}), t.Index)
	}
	if d := out.Dialog; d != nil {
		fmt.Fprintf(&b, "\n%s is open: %q — answer with \"waymark dialog accept\" or \"waymark dialog dismiss\"", d.Named(), d.Message)
	}
	for _, d := range out.Downloads {
		b.WriteString("\n" + d.Summary())
		if d.State == calls.DownloadInProgress {
			b.WriteString(` — "waymark downloads" shows how it ends`)
		}
	}
	return b.String()
}

// NetLogBrief is the NetLog's line on a span of the session's browser
// (replay.Options.NetLog).
func NetLogBrief(s calls.Session) func(ctx context.Context, since, until time.Time) (string, error) {
	return func(ctx context.Context, since, until time.Time) (string, error) {
		res, err := s.NetLog(ctx, calls.NetLogRequest{SinceUnixMS: since.UnixMilli(), UntilUnixMS: until.UnixMilli()})
		if err != nil {
			return "", err
		}
		return res.Brief, nil
	}
}

// describeAct says what was done, in the past tense. It does not repeat
// the target: the agent just wrote it, on the line above, and it costs
// tokens on every action. Typed values are not repeated either: they may
// be passwords.
func describeAct(r calls.ActRequest) string {
	switch r.Kind {
	case calls.ActClick:
		s := "clicked"
		if r.Button != "" && r.Button != "left" {
			s = r.Button + "-" + s
		}
		if r.Count > 1 {
			s += fmt.Sprintf(" %d times", r.Count)
		}
		return s
	case calls.ActDblClick:
		return "double-clicked"
	case calls.ActHover:
		return "hovered"
	case calls.ActFocus:
		return "focused"
	case calls.ActFill:
		return "filled"
	case calls.ActType:
		return "typed"
	case calls.ActPress:
		return "pressed " + r.Key
	case calls.ActSelect:
		return "selected " + quoteAll(r.Values)
	case calls.ActCheck:
		return "checked"
	case calls.ActUncheck:
		return "unchecked"
	case calls.ActScroll:
		return describeScroll(r)
	case calls.ActUpload:
		return fmt.Sprintf("uploaded %d file(s)", len(r.Files))
	case calls.ActDrag:
		if r.By != nil {
			return fmt.Sprintf("dragged by (%s, %s)", fmtNum(r.By.X), fmtNum(r.By.Y))
		}
		return "dragged"
	case calls.ActClickAt:
		return "clicked"
	}
	return r.Kind + " " + r.Target
}

func quoteAll(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(q, ", ")
}

// fmtNum writes a coordinate without a needless fraction.
func fmtNum(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func describeScroll(r calls.ActRequest) string {
	if r.Direction == "into-view" {
		return "scrolled into view"
	}
	s := "scrolled " + r.Direction
	if r.Pixels > 0 {
		s += fmt.Sprintf(" %dpx", r.Pixels)
	}
	return s
}
