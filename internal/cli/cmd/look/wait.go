package look

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

// WaitOptions are the flags of `waymark wait`.
type WaitOptions struct {
	cmdutil.Common
	Request calls.WaitRequest
}

// NewCmdWait builds `waymark wait`.
func NewCmdWait(f *cmdutil.Factory, runF func(context.Context, *WaitOptions) error) *cobra.Command {
	opts := &WaitOptions{}
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "wait [MS] [--text T | --gone T | --selector CSS | --url GLOB | --load]",
		Short: "Wait for the page to show something, or for a time",
		Long: `Wait for one condition: text to appear (--text) or go (--gone), a CSS
selector to match a visible element, the URL to match a glob, or the document
to load. With none, wait MS milliseconds (or a duration such as 2s).`,
		Example: "  waymark wait --text 'Cart (1)'\n  waymark wait --url '**/checkout' --timeout 60s\n  waymark wait 500",
		Args:    cmdutil.ArgsRange(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			r := &opts.Request
			conds := 0
			for _, set := range []bool{r.Text != "", r.Gone != "", r.Selector != "", r.URL != "", r.Load} {
				if set {
					conds++
				}
			}
			if len(args) == 1 {
				conds++
				ms, err := parseWaitTime(args[0])
				if err != nil {
					return cmdutil.UsageErrorf(cmdutil.HelpHint(cmd), "%v", err)
				}
				r.MS = ms
			}
			switch {
			case conds == 0:
				return cmdutil.UsageErrorf(cmdutil.HelpHint(cmd), "wait for what? give --text, --gone, --selector, --url, --load or a time")
			case conds > 1:
				return cmdutil.UsageErrorf("run one wait per condition", "wait takes one condition at a time")
			}
			ms, err := f.CommandTimeout(cmd, timeout)
			if err != nil {
				return err
			}
			r.TimeoutMS = ms
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return waitRun(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Request.Text, "text", "", "wait until this text appears")
	fl.StringVar(&opts.Request.Gone, "gone", "", "wait until this text disappears")
	fl.StringVar(&opts.Request.Selector, "selector", "", "wait until a CSS selector matches a visible element")
	fl.StringVar(&opts.Request.URL, "url", "", "wait until the URL matches a glob (* any run, slashes too; ? one character; a glob starting with / matches the path)")
	fl.BoolVar(&opts.Request.Load, "load", false, "wait until the document has loaded")
	cmdutil.AddTimeoutFlag(cmd, &timeout, "the condition (default 30s)")
	return cmdutil.RunsInDaemon(cmd)
}

// parseWaitTime reads milliseconds ("500") or a Go duration ("2s").
func parseWaitTime(s string) (int, error) {
	if ms, err := strconv.Atoi(s); err == nil && ms >= 0 {
		return ms, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("wait %q: %s", s, waitInstead(s))
	}
	return int(d / time.Millisecond), nil
}

// waitInstead says what to write for a word wait cannot read as a time.
// The other commands take locators, so text=… and css=… come naturally
// here too: they are answered with the flag that waits for them.
func waitInstead(s string) string {
	quote := func(v string) string { return "'" + strings.ReplaceAll(v, "'", `'\''`) + "'" }
	if v, ok := strings.CutPrefix(s, "text="); ok {
		return "to wait for text, write " + calls.Cmd("wait --text "+quote(strings.Trim(v, `"`)))
	}
	if v, ok := strings.CutPrefix(s, "css="); ok {
		return "to wait for an element, write " + calls.Cmd("wait --selector "+quote(v))
	}
	return "give milliseconds (500), a duration (2s), or one of --text, --gone, --selector, --url or --load"
}

func waitRun(ctx context.Context, opts *WaitOptions) error {
	res, err := opts.Remote().Wait(ctx, opts.Request)
	if err != nil {
		return err
	}
	return opts.Emit(res, func() error {
		opts.Note("waited for %s", describeWait(opts.Request))
		return nil
	})
}

func describeWait(r calls.WaitRequest) string {
	var parts []string
	switch {
	case r.Text != "":
		parts = append(parts, fmt.Sprintf("text %q", r.Text))
	case r.Gone != "":
		parts = append(parts, fmt.Sprintf("text %q to go", r.Gone))
	case r.Selector != "":
		parts = append(parts, fmt.Sprintf("selector %q", r.Selector))
	case r.URL != "":
		parts = append(parts, fmt.Sprintf("URL %q", r.URL))
	case r.Load:
		parts = append(parts, "the load")
	default:
		parts = append(parts, (time.Duration(r.MS) * time.Millisecond).String())
	}
	return strings.Join(parts, " ")
}
