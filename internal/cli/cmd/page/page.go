package page

import (
	"context"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/pilotflags"
)

// ViewportOptions are the flags of `waymark viewport W H`.
type ViewportOptions struct {
	cmdutil.Common
	Request calls.ViewportRequest
}

// NewCmdViewport builds `waymark viewport WIDTH HEIGHT`.
func NewCmdViewport(f *cmdutil.Factory, runF func(context.Context, *ViewportOptions) error) *cobra.Command {
	opts := &ViewportOptions{}
	return &cobra.Command{
		Use:     "viewport WIDTH HEIGHT",
		Short:   "Set the size of the page's viewport in CSS pixels",
		Example: "  waymark viewport 390 844",
		Args:    cmdutil.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			w, err1 := strconv.Atoi(args[0])
			h, err2 := strconv.Atoi(args[1])
			if err1 != nil || err2 != nil || w <= 0 || h <= 0 {
				return cmdutil.UsageErrorf("e.g. "+calls.Cmd("viewport 1280 800"), "viewport needs two positive whole numbers, got %q %q", args[0], args[1])
			}
			opts.Request = calls.ViewportRequest{Width: w, Height: h}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return viewportRun(cmd.Context(), opts)
		},
	}
}

func viewportRun(ctx context.Context, opts *ViewportOptions) error {
	_, err := opts.Remote().Viewport(ctx, opts.Request)
	if err != nil {
		return err
	}
	return opts.Emit(opts.Request, func() error {
		opts.Note("viewport set to %d×%d", opts.Request.Width, opts.Request.Height)
		return nil
	})
}

// DialogOptions are the flags of `waymark dialog accept|dismiss`.
type DialogOptions struct {
	cmdutil.Common
	Request calls.DialogRequest
}

// NewCmdDialog builds `waymark dialog accept [TEXT]|dismiss`.
func NewCmdDialog(f *cmdutil.Factory, runF func(context.Context, *DialogOptions) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "dialog accept [TEXT]|dismiss",
		Short: "Answer the open JavaScript dialog",
		Long: `Answer the alert, confirm, prompt or beforeunload dialog that waits on the
page: accept it (with TEXT as a prompt's answer) or dismiss it.`,
		Example: "  waymark dialog accept\n  waymark dialog accept 'my answer'\n  waymark dialog accept --secret pin=env:PIN\n  waymark dialog dismiss",
		Args:    cobra.ArbitraryArgs,
		RunE:    cmdutil.GroupRunE,
	}
	opts := &DialogOptions{}
	run := func(cmd *cobra.Command, req calls.DialogRequest) error {
		opts.Common = f.Common()
		opts.Request = req
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return dialogRun(cmd.Context(), opts)
	}
	// Accepting a confirm presses what it asks: the gate is the one of a
	// plain element command (cmdutil.SubmitGate), and a send the accept
	// starts that commits needs approval like a click's.
	var askSubmit, allowSubmit bool
	var secretRef string
	accept := &cobra.Command{
		Use:   "accept [TEXT]",
		Short: "Accept the dialog (TEXT answers a prompt)",
		Args:  cmdutil.ArgsRange(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			req := calls.DialogRequest{Accept: true}
			if len(args) == 1 {
				req.Text = args[0]
			}
			var err error
			if secretRef != "" {
				// A prompt that asks for a PIN: typed through the
				// session's registry, masked wherever the page echoes it.
				if req.Text != "" {
					return cmdutil.UsageErrorf("give TEXT or --secret, not both", "two answers to the prompt")
				}
				if req.Secret, req.Text, err = pilotflags.RevealSecret(f.Common(), secretRef); err != nil {
					return err
				}
			}
			if req.Submits, err = f.SubmitGate(askSubmit, allowSubmit); err != nil {
				return err
			}
			return run(cmd, req)
		},
	}
	accept.Flags().StringVar(&secretRef, "secret", "", "answer a prompt with a secret instead of TEXT: name=env:VAR; never shown")
	accept.Flags().BoolVar(&askSubmit, "ask-submit", false, "refuse, with what it would send, if accepting sends a form, pays, deletes or confirms")
	accept.Flags().BoolVar(&allowSubmit, "allow-submit", false, `let accepting send a form, pay, delete or confirm when the config file says submits = "ask"`)
	accept.MarkFlagsMutuallyExclusive("ask-submit", "allow-submit")
	cmd.AddCommand(
		accept,
		&cobra.Command{
			Use:   "dismiss",
			Short: "Dismiss the dialog",
			Args:  cmdutil.ExactArgs(0),
			RunE: func(cmd *cobra.Command, args []string) error {
				return run(cmd, calls.DialogRequest{})
			},
		},
	)
	return cmd
}

func dialogRun(ctx context.Context, opts *DialogOptions) error {
	res, err := opts.Remote().Dialog(ctx, opts.Request)
	if err != nil {
		return err
	}
	return opts.Emit(res, func() error {
		if opts.Request.Accept {
			opts.Note("accepted the dialog")
		} else {
			opts.Note("dismissed the dialog")
		}
		return nil
	})
}
