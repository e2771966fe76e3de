package look

import (
	"context"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

// CaptureOptions are the flags of `waymark capture start|stop`.
type CaptureOptions struct {
	cmdutil.Common
	Op   string // "start" or "stop"
	File string // stop: where the capture goes
	HAR  string // stop: where its HAR 1.2 goes, if anywhere
}

// NewCmdCapture builds `waymark capture start|stop`.
func NewCmdCapture(f *cmdutil.Factory, runF func(context.Context, *CaptureOptions) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "capture start|stop",
		Short: "Capture the session's network (redacted) to a file, and as HAR",
		Long: `Capture what the session's pages send and get back: after waymark capture
start, the documents, XHR and fetch requests of every tab and frame, who sent
each (the script on the initiator stack), their headers and bodies, the JSON
and text they returned, WebSocket and event-stream frames, and the page state
requests are built from (meta tags, local and session storage, cookies,
__NEXT_DATA__). waymark capture stop FILE writes it (format
waymark.capture/1), and with --har also as HAR 1.2.

Secrets never reach the file: Authorization, Cookie and Set-Cookie values,
API keys, CSRF tokens, JWT and key shapes, secret-named fields, card numbers
and every value typed as a secret become «redacted:KIND:HASH», a keyed hash
drawn for this capture only, so the same token has the same marker in a
header and in local storage. Nothing listens while no capture runs.`,
		Example: "  waymark capture start\n" +
			"  waymark open shop.example && waymark click @e4\n" +
			"  waymark capture stop shop.capture.json --har shop.har",
		Args: cobra.ArbitraryArgs,
		RunE: cmdutil.GroupRunE,
	}
	start, stop := &CaptureOptions{Op: "start"}, &CaptureOptions{Op: "stop"}
	startCmd, stopCmd := cmdutil.StartStopCommands(f, runF, cmdutil.StartStop[CaptureOptions]{
		StartShort: "Start capturing the session's network",
		StopShort:  "Stop capturing and write the capture to FILE",
		Start:      start,
		Stop:       stop,
		Common:     func(o *CaptureOptions) *cmdutil.Common { return &o.Common },
		File:       func(o *CaptureOptions) *string { return &o.File },
		RunStart:   captureStartRun,
		RunStop:    captureStopRun,
	})
	stopCmd.Flags().StringVar(&stop.HAR, "har", "", "also write the capture as HAR 1.2 to `FILE.har`")
	cmd.AddCommand(startCmd, stopCmd)
	return cmd
}

func captureStartRun(ctx context.Context, opts *CaptureOptions) error {
	res, err := opts.Remote().StartCapture(ctx, calls.CaptureStartRequest{})
	if err != nil {
		return err
	}
	return opts.Emit(res, func() error {
		opts.Note("capturing session %q's network until waymark capture stop FILE", opts.Session)
		return nil
	})
}

// captureStopJSON is the data of `capture stop --json`.
type captureStopJSON struct {
	File      string `json:"file"`
	HAR       string `json:"har,omitempty"`
	Exchanges int    `json:"exchanges"`
	Messages  int    `json:"messages"`
	State     int    `json:"state"`
	Dropped   int    `json:"dropped,omitempty"`
}

func captureStopRun(ctx context.Context, opts *CaptureOptions) error {
	// The capture so far, still running: it is written first and ends only
	// then, so a file that cannot be written loses nothing.
	res, err := opts.Remote().StopCapture(ctx, calls.CaptureStopRequest{Keep: true, HAR: opts.HAR != ""})
	if err != nil {
		return err
	}
	if err := writeNetCapture(opts.File, opts.HAR, res); err != nil {
		return err
	}
	final, err := opts.Remote().StopCapture(ctx, calls.CaptureStopRequest{HAR: opts.HAR != ""})
	if err != nil {
		return err
	}
	if err := writeNetCapture(opts.File, opts.HAR, final); err != nil {
		return err
	}
	data := captureStopJSON{File: opts.File, HAR: opts.HAR, Exchanges: final.Exchanges, Messages: final.Messages, State: final.State, Dropped: final.Dropped}
	return opts.Emit(data, func() error {
		opts.Note("captured %s, %s and %s to %s", cmdutil.Count(final.Exchanges, "request"), cmdutil.Count(final.Messages, "frame"), cmdutil.Count(final.State, "state value"), opts.File)
		if opts.HAR != "" {
			opts.Note("HAR 1.2: %s", opts.HAR)
		}
		if final.Dropped > 0 {
			opts.Note("not kept (limits): %d", final.Dropped)
		}
		return nil
	})
}

// writeCapture writes a capture (and its HAR when asked for) 0600.
func writeNetCapture(file, har string, res *calls.CaptureStopResult) error {
	for _, w := range []struct {
		path string
		data []byte
	}{{file, res.Capture}, {har, res.HAR}} {
		if w.path == "" {
			continue
		}
		abs, err := filepath.Abs(w.path)
		if err != nil {
			return err
		}
		if err := cmdutil.WriteFileAtomic(abs, w.data, 0o600); err != nil {
			return calls.Errorf(calls.ErrBadInput, "give a path you can write; the session is still capturing: "+calls.Cmd("capture stop OTHER.json"),
				"cannot write %s: %v", w.path, err)
		}
	}
	return nil
}
