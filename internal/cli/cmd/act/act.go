package act

import (
	"context"
	"time"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

// ActOptions are the flags of every element action (click, fill, press, …):
// they share one request, one call and one way of printing the outcome.
type ActOptions struct {
	cmdutil.Common
	Request calls.ActRequest
}

// actSpec describes one action command.
type actSpec struct {
	kind    string // calls.ActClick, …
	use     string
	short   string
	long    string
	example string
	args    cobra.PositionalArgs
	// flags registers the command's own flags; parse turns the arguments
	// into the request after flag parsing.
	flags func(cmd *cobra.Command, req *calls.ActRequest)
	parse func(cmd *cobra.Command, args []string, req *calls.ActRequest) error
	// readsFiles says the command reads files named relative to the
	// working folder (upload): it runs in the calling process, never in
	// the daemon for the thin front (see [remoteSafe]).
	readsFiles bool
}

// newActCmd builds an action command from its spec.
func newActCmd(f *cmdutil.Factory, runF func(context.Context, *ActOptions) error, s actSpec) *cobra.Command {
	opts := &ActOptions{}
	var timeout time.Duration
	var askSubmit, allowSubmit, withHand bool
	// Only these can send a form, pay, delete or confirm (a click, or
	// Enter); the gate is theirs.
	gated := s.kind == calls.ActClick || s.kind == calls.ActDblClick || s.kind == calls.ActClickAt || s.kind == calls.ActPress
	long := s.short + "."
	if s.long != "" {
		long = s.long
	}
	cmd := &cobra.Command{
		Use:     s.use,
		Short:   s.short,
		Long:    long + "\n\n" + cmdutil.TargetHelp,
		Example: s.example,
		Args:    s.args,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			opts.Request.Kind = s.kind
			if err := s.parse(cmd, args, &opts.Request); err != nil {
				return err
			}
			ms, err := f.CommandTimeout(cmd, timeout)
			if err != nil {
				return err
			}
			opts.Request.TimeoutMS = ms
			if gated {
				if opts.Request.Submits, err = f.SubmitGate(askSubmit, allowSubmit); err != nil {
					return err
				}
			}
			opts.Request.Hand = withHand
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return actRun(cmd.Context(), opts)
		},
	}
	if s.flags != nil {
		s.flags(cmd, &opts.Request)
	}
	cmdutil.AddTimeoutFlag(cmd, &timeout, "the element to be ready")
	switch s.kind {
	case calls.ActClick, calls.ActDblClick, calls.ActClickAt, calls.ActHover, calls.ActFill, calls.ActType, calls.ActCheck, calls.ActUncheck:
		cmd.Flags().BoolVar(&withHand, "hand", false, "move and type at a person's pace (a pointer path, key-by-key cadence)")
	}
	if gated {
		// A person who names the exact element has chosen it; the gate is
		// theirs to turn on (issue 7: submits default to allow here, unless
		// the config file says [session] submits = "ask").
		cmd.Flags().BoolVar(&askSubmit, "ask-submit", false, "refuse, with what it would press, if this sends a form, pays, deletes or confirms")
		cmd.Flags().BoolVar(&allowSubmit, "allow-submit", false, `let this send a form, pay, delete or confirm when the config file says submits = "ask"`)
		cmd.MarkFlagsMutuallyExclusive("ask-submit", "allow-submit")
	}
	if !s.readsFiles {
		cmdutil.RunsInDaemon(cmd)
	}
	return cmd
}

// targetOnly parses `verb TARGET`.
func targetOnly(_ *cobra.Command, args []string, req *calls.ActRequest) error {
	req.Target = args[0]
	return nil
}

// targetText parses `verb TARGET TEXT` (fill, type).
func targetText(_ *cobra.Command, args []string, req *calls.ActRequest) error {
	req.Target, req.Value = args[0], args[1]
	return nil
}

func actRun(ctx context.Context, opts *ActOptions) error {
	out, err := opts.Remote().Act(ctx, opts.Request)
	if err != nil {
		return err
	}
	return opts.Emit(out, func() error {
		opts.Said("%s", cmdutil.DescribeOutcome(opts.Request, *out))
		return nil
	})
}

// NewCmdClick builds `waymark click TARGET`.
func NewCmdClick(f *cmdutil.Factory, runF func(context.Context, *ActOptions) error) *cobra.Command {
	return newActCmd(f, runF, actSpec{
		kind:    calls.ActClick,
		use:     "click TARGET",
		short:   "Click an element",
		example: "  waymark click @e12\n  waymark click 'role=button[name=\"Pay now\"]'\n  waymark click e7 --button right",
		args:    cmdutil.ExactArgs(1),
		flags: func(cmd *cobra.Command, req *calls.ActRequest) {
			cmd.Flags().StringVar(&req.Button, "button", "left", "the mouse button: left, right or middle")
			cmd.Flags().IntVar(&req.Count, "count", 1, "how many clicks")
		},
		parse: func(cmd *cobra.Command, args []string, req *calls.ActRequest) error {
			switch req.Button {
			case "left", "right", "middle":
			default:
				return cmdutil.UsageErrorf(cmdutil.HelpHint(cmd), "--button must be left, right or middle, got %q", req.Button)
			}
			if req.Count < 1 {
				return cmdutil.UsageErrorf(cmdutil.HelpHint(cmd), "--count must be at least 1, got %d", req.Count)
			}
			return targetOnly(cmd, args, req)
		},
	})
}

// NewCmdDblClick builds `waymark dblclick TARGET`.
func NewCmdDblClick(f *cmdutil.Factory, runF func(context.Context, *ActOptions) error) *cobra.Command {
	return newActCmd(f, runF, actSpec{kind: calls.ActDblClick, use: "dblclick TARGET", short: "Double-click an element", args: cmdutil.ExactArgs(1), parse: targetOnly})
}

// NewCmdHover builds `waymark hover TARGET`.
func NewCmdHover(f *cmdutil.Factory, runF func(context.Context, *ActOptions) error) *cobra.Command {
	return newActCmd(f, runF, actSpec{kind: calls.ActHover, use: "hover TARGET", short: "Move the mouse over an element", args: cmdutil.ExactArgs(1), parse: targetOnly})
}

// NewCmdFocus builds `waymark focus TARGET`.
func NewCmdFocus(f *cmdutil.Factory, runF func(context.Context, *ActOptions) error) *cobra.Command {
	return newActCmd(f, runF, actSpec{kind: calls.ActFocus, use: "focus TARGET", short: "Focus an element", args: cmdutil.ExactArgs(1), parse: targetOnly})
}

// NewCmdCheck builds `waymark check TARGET`.
func NewCmdCheck(f *cmdutil.Factory, runF func(context.Context, *ActOptions) error) *cobra.Command {
	return newActCmd(f, runF, actSpec{kind: calls.ActCheck, use: "check TARGET", short: "Check a checkbox or radio button (no change if it is checked)", args: cmdutil.ExactArgs(1), parse: targetOnly})
}

// NewCmdUncheck builds `waymark uncheck TARGET`.
func NewCmdUncheck(f *cmdutil.Factory, runF func(context.Context, *ActOptions) error) *cobra.Command {
	return newActCmd(f, runF, actSpec{kind: calls.ActUncheck, use: "uncheck TARGET", short: "Uncheck a checkbox (no change if it is unchecked)", args: cmdutil.ExactArgs(1), parse: targetOnly})
}

// NewCmdDrag builds `waymark drag SOURCE TARGET` and `waymark drag
// SOURCE --by DX,DY`.
func NewCmdDrag(f *cmdutil.Factory, runF func(context.Context, *ActOptions) error) *cobra.Command {
	var by string
	return newActCmd(f, runF, actSpec{
		kind:    calls.ActDrag,
		use:     "drag SOURCE [TARGET] [--by DX,DY]",
		short:   "Drag one element onto another, or by an offset",
		long:    "Drag one element onto another, or by an offset in CSS pixels (--by 120,0 moves it 120 px right; a slider's thumb, a card, a map panned).",
		example: "  waymark drag @e4 @e9\n  waymark drag @e4 --by 120,0",
		args:    cmdutil.ArgsRange(1, 2),
		flags: func(cmd *cobra.Command, _ *calls.ActRequest) {
			cmd.Flags().StringVar(&by, "by", "", "drag by this offset in CSS pixels, DX,DY (instead of onto TARGET)")
		},
		parse: func(cmd *cobra.Command, args []string, req *calls.ActRequest) error {
			req.Target = args[0]
			switch {
			case len(args) == 2 && by != "":
				return cmdutil.UsageErrorf(cmdutil.HelpHint(cmd), "give a TARGET or --by DX,DY, not both")
			case len(args) == 2:
				req.To = args[1]
				return nil
			case by == "":
				return cmdutil.UsageErrorf(cmdutil.HelpHint(cmd), "drag needs a TARGET to drop on, or --by DX,DY")
			}
			p, err := calls.ParsePoint(by)
			if err != nil {
				return cmdutil.UsageErrorf(cmdutil.HelpHint(cmd), "--by %q: %v", by, err)
			}
			req.By = &p
			return nil
		},
	})
}

// NewCmdClickAt builds `waymark click-at X Y`.
func NewCmdClickAt(f *cmdutil.Factory, runF func(context.Context, *ActOptions) error) *cobra.Command {
	return newActCmd(f, runF, actSpec{
		kind:  calls.ActClickAt,
		use:   "click-at X Y",
		short: "Click at a point of the view",
		long: "Click at a point of the view, in CSS pixels from its top left corner (as a screenshot shows it). " +
			"The control under the point (a button, a link, a field, a map's marker) gets the ordinary click, with its checks and the submit gate, " +
			"and the outcome names it with a ref; a canvas, a map or a picture is pressed exactly at the point. " +
			"A point inside a frame is refused: click the frame's controls by their refs.",
		example: "  waymark click-at 420 310\n  waymark --json click-at 120.5 48",
		args:    cmdutil.ExactArgs(2),
		parse: func(cmd *cobra.Command, args []string, req *calls.ActRequest) error {
			p, err := calls.ParsePoint(args[0] + "," + args[1])
			if err != nil {
				return cmdutil.UsageErrorf(cmdutil.HelpHint(cmd), "%v", err)
			}
			req.At = &p
			return nil
		},
	})
}
