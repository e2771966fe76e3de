package netlog

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/netlog"
)

// NetlogSummarizeOptions are the flags of `waymark netlog summarize`.
type NetlogSummarizeOptions struct {
	cmdutil.Common
	File string
}

// NewCmdNetlog builds `waymark netlog summarize FILE`.
func NewCmdNetlog(f *cmdutil.Factory, runF func(context.Context, *NetlogSummarizeOptions) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "netlog summarize FILE",
		Short: "Sum up a Chromium NetLog: requests, errors, TLS, timing (no secrets)",
		Long: `A NetLog is Chromium's record of the wire below DevTools: DNS, connects,
TLS handshakes, HTTP/2, proxies, and the net error a request died of
before any HTTP answer. "waymark --netlog FILE …" makes the daemon's
browser write one; Chromium's --log-net-log=FILE does too.

"netlog summarize" prints every request with its method, URL (query keys
without their values), status, protocol, timing, the TLS of its
connection and the error it died of; proxy and DNS events; errors by
host. A log cut short (a crashed browser) is read as far as it goes. No
cookie, header value or query value is printed.`,
		Args:        cobra.ArbitraryArgs,
		RunE:        cmdutil.GroupRunE,
		Annotations: map[string]string{cmdutil.ConfigOptional: "uses none"},
	}
	opts := &NetlogSummarizeOptions{}
	cmd.AddCommand(&cobra.Command{
		Use:   "summarize FILE",
		Short: "Print a redacted summary of a NetLog (Markdown, or the summary with --json)",
		Args:  cmdutil.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.Common = f.Common()
			opts.File = args[0]
			if runF != nil {
				return runF(c.Context(), opts)
			}
			return netlogSummarizeRun(c.Context(), opts)
		},
	})
	return cmd
}

func netlogSummarizeRun(_ context.Context, opts *NetlogSummarizeOptions) error {
	s, err := summarizeNetlog(opts.File)
	if err != nil {
		return err
	}
	if s.Truncated && !opts.JSON {
		opts.Note("warning: %s is cut short; summed up as far as it goes", opts.File)
	}
	return opts.Emit(s, func() error {
		_, err := io.WriteString(opts.IO.Out, s.Markdown())
		return err
	})
}

// summarizeNetlog reads the NetLog at path, with the user's mistakes
// (no file, not a NetLog) as bad input.
func summarizeNetlog(path string) (*netlog.Summary, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, calls.Errorf(calls.ErrBadInput, "give the file Chromium wrote with --log-net-log, or run "+calls.Cmd("--netlog FILE open URL"), "no NetLog %s", path)
	}
	if err != nil {
		return nil, calls.Errorf(calls.ErrBadInput, "", "read %s: %v", path, err)
	}
	defer f.Close()
	s, err := netlog.Summarize(f, nil)
	if err != nil {
		return nil, calls.Errorf(calls.ErrBadInput, `give a NetLog JSON file (chrome://net-export or --log-net-log)`, "%s: %v", path, err)
	}
	return s, nil
}
