package look

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

// LocateOptions are the flags of `waymark locate`.
type LocateOptions struct {
	cmdutil.Common
	Request calls.LocateRequest
}

// NewCmdLocate builds `waymark locate TARGET`.
func NewCmdLocate(f *cmdutil.Factory, runF func(context.Context, *LocateOptions) error) *cobra.Command {
	opts := &LocateOptions{}
	return &cobra.Command{
		Use:   "locate TARGET",
		Short: "Show the locators that reach an element, and its fingerprint",
		Long: `List every locator that reaches an element (a ref or a locator) with how
many elements it matches on the page now, in order of preference: role,
text, label, placeholder, test id, CSS from stable attributes. The first that
matches exactly one element is chosen. The fingerprint says what the element
is, so that waymark find can find it again on a changed page.`,
		Example: "  waymark locate @e12\n  waymark locate @e12 --json > step.json",
		Args:    cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			opts.Request.Target = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return locateRun(cmd.Context(), opts)
		},
	}
}

func locateRun(ctx context.Context, opts *LocateOptions) error {
	ev, err := opts.Remote().Locate(ctx, opts.Request)
	if err != nil {
		return err
	}
	return opts.Emit(ev, func() error {
		out := opts.IO.Out
		chosen := ev.Chosen
		if chosen == "" {
			chosen = "(none: no locator matches only this element)"
		}
		fmt.Fprintf(out, "chosen: %s\n", chosen)
		if len(ev.Frame) > 0 {
			fmt.Fprintf(out, "frame:  %s\n", strings.Join(ev.Frame, " > "))
		}
		rows := make([][]string, 0, len(ev.Candidates))
		for _, c := range ev.Candidates {
			rows = append(rows, []string{c.Kind, fmt.Sprint(c.Matches), c.Value})
		}
		if err := cmdutil.PrintTable(out, opts.IO.IsStdoutTTY(), []string{"KIND", "MATCHES", "LOCATOR"}, rows); err != nil {
			return err
		}
		fp, _ := json.Marshal(ev.Fingerprint)
		_, err := fmt.Fprintf(out, "fingerprint: %s\n", fp)
		return err
	})
}

// FindOptions are the flags of `waymark find`.
type FindOptions struct {
	cmdutil.Common
	Request calls.FindRequest
}

// NewCmdFind builds `waymark find`.
func NewCmdFind(f *cmdutil.Factory, runF func(context.Context, *FindOptions) error) *cobra.Command {
	opts := &FindOptions{}
	var locatorFlag, fpFile string
	var row int
	cmd := &cobra.Command{
		Use:   "find [TARGET-JSON]",
		Short: "Find a recorded element on the page now, pressing nothing",
		Long: `Resolve a recorded element on the page now and say found, moved (with its new
locator), ambiguous, replaced (a different control stands in its place) or
missing. Give the target as JSON ({"locator": …, "fingerprint": {…}}, as
in a routine step or waymark locate --json), or with --locator and
--fingerprint FILE.`,
		Example: "  waymark find --locator 'role=button[name=\"Save\"]' --fingerprint fp.json\n  waymark find \"$(cat step.json)\"",
		Args:    cmdutil.ArgsRange(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			if len(args) == 1 {
				var in struct {
					calls.FindRequest
					Chosen string `json:"chosen"` // waymark locate --json's output
				}
				raw := []byte(args[0])
				var env struct {
					Data json.RawMessage `json:"data"` // a --json envelope, as waymark locate --json prints
				}
				if json.Unmarshal(raw, &env) == nil && len(env.Data) > 0 {
					raw = env.Data
				}
				if err := json.Unmarshal(raw, &in); err != nil {
					return cmdutil.UsageErrorf(cmdutil.HelpHint(cmd), "the target is not JSON: %v", err)
				}
				opts.Request = in.FindRequest
				if opts.Request.Locator == "" {
					opts.Request.Locator = in.Chosen
				}
			}
			if locatorFlag != "" {
				opts.Request.Locator = locatorFlag
			}
			if fpFile != "" {
				b, err := os.ReadFile(fpFile)
				if err != nil {
					return fmt.Errorf("%w: read the fingerprint: %v", calls.ErrBadInput, err)
				}
				var wrapped struct {
					Fingerprint *calls.Fingerprint `json:"fingerprint"`
				}
				if json.Unmarshal(b, &wrapped); wrapped.Fingerprint != nil {
					opts.Request.Fingerprint = *wrapped.Fingerprint
				} else if err := json.Unmarshal(b, &opts.Request.Fingerprint); err != nil {
					return fmt.Errorf("%w: %s is not a fingerprint: %v", calls.ErrBadInput, fpFile, err)
				}
			}
			if cmd.Flags().Changed("row") {
				opts.Request.Positional, opts.Request.Row = true, row
			}
			if opts.Request.Fingerprint.Role == "" {
				return cmdutil.UsageErrorf(cmdutil.HelpHint(cmd), "find needs a fingerprint (JSON argument or --fingerprint FILE)")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return findRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&locatorFlag, "locator", "", "the recorded locator")
	cmd.Flags().StringVar(&fpFile, "fingerprint", "", "a JSON file holding the fingerprint (or waymark locate --json output)")
	cmd.Flags().IntVar(&row, "row", 0, "positional: take the element in this row (0-based) of its list")
	return cmd
}

func findRun(ctx context.Context, opts *FindOptions) error {
	r, err := opts.Remote().Find(ctx, opts.Request)
	if err != nil {
		return err
	}
	// The status is the answer, so every status exits 0; scripts read it
	// from the first word, or from data.status with --json.
	return opts.Emit(r, func() error {
		line := r.Status
		if r.Ref != "" {
			line += " @" + r.Ref
		}
		if r.Locator != "" {
			line += "  new locator: " + r.Locator
		}
		fmt.Fprintln(opts.IO.Out, line)
		if r.Reason != "" {
			fmt.Fprintf(opts.IO.ErrOut, "%s (score %.2f)\n", r.Reason, r.Score)
		}
		return nil
	})
}
