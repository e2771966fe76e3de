package doctor

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/browser"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/config"
	"github.com/waymark-dev/waymark/internal/daemon"
)

// DoctorOptions are the flags of `waymark doctor` and the checks it runs.
// Each func field is a seam for tests; nil means the real thing.
type DoctorOptions struct {
	cmdutil.Common
	Models      bool     // --models: call each configured model's provider
	Apps        bool     // --apps: list the applications waymark knows, and whether each was checked
	Socket      string   // the daemon socket (--socket); empty: the per-user default
	BrowserArgs []string // extra flags for the test browser, after [browser] args

	// LoadConfig reads the configuration; nil means the process's one
	// reading (Common.Config), global flags included.
	LoadConfig func() (*config.Config, error)
	// FindBrowser finds Chromium; nil means browser.Find.
	FindBrowser func(explicit string) (string, error)
	// BrowserVersion runs `path --version`; nil means exec with a timeout.
	BrowserVersion func(ctx context.Context, path string) (string, error)
	// RenderPage starts the browser headless, renders a test page, closes
	// the browser and says what it saw; nil means driver.Launch and a page
	// served on loopback.
	RenderPage func(ctx context.Context, path string, args []string) (string, error)
	// SocketPaths gives the daemon's files; nil means daemon.PathsFor.
	SocketPaths func(socket string) (daemon.Paths, error)
	// ProbeCDP checks a DevTools endpoint; nil means config.ProbeCDP.
	ProbeCDP func(ctx context.Context, endpoint string) error
	// HTTPClient calls the model providers; nil means a client with a 10 s
	// timeout.
	HTTPClient *http.Client
	// FreeSpace returns the bytes free to us on path's file system; nil
	// means statfs.
	FreeSpace func(path string) (uint64, error)
}

// NewCmdDoctor builds `waymark doctor`.
func NewCmdDoctor(f *cmdutil.Factory, runF func(context.Context, *DoctorOptions) error) *cobra.Command {
	opts := &DoctorOptions{}
	cmd := &cobra.Command{
		Use:   "doctor [--models | --apps]",
		Short: "Check that waymark can run here, and say how to fix what fails",
		Long: `Check the browser (found, its version, a headless start rendering a page),
the daemon's socket folder, the config files, a CDP endpoint when one is
configured, free disk for evidence and, with --models, each configured model.
Each failed check prints its fix. Exits 0 only when every check passes.`,
		Example:     "  waymark doctor\n  waymark doctor --models --json",
		Args:        cmdutil.ExactArgs(0),
		Annotations: map[string]string{cmdutil.ConfigOptional: "reports the config's errors"},
		RunE: func(c *cobra.Command, args []string) error {
			opts.Common = f.Common()
			opts.Socket = f.Globals.Socket
			if runF != nil {
				return runF(c.Context(), opts)
			}
			if opts.Apps {
				return doctorApps(opts.WithDefaults())
			}
			return doctorRun(c.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Models, "models", false, "also call each configured model's provider (uses the API key)")
	cmd.Flags().BoolVar(&opts.Apps, "apps", false, "list the spreadsheets and editors waymark knows instead, and which are unverified")
	return cmd
}

// Check states.
const (
	checkOK   = "ok"
	checkFail = "fail"
	checkWarn = "warn" // works, but look at it; does not fail doctor
	checkSkip = "skip" // not run: not configured or not asked for
)

// DoctorCheck is the result of one check.
type DoctorCheck struct {
	Name   string `json:"name"`
	Status string `json:"status"` // ok, fail, warn or skip
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

// doctorReport is the --json data of a doctor run that passed.
type doctorReport struct {
	OK     bool          `json:"ok"`
	Checks []DoctorCheck `json:"checks"`
}

// ErrChecksFailed is the category of a [*DoctorError].
var ErrChecksFailed = errors.New("doctor checks failed")

// DoctorError says that checks failed. It maps to exit status 1; its hint
// is the first failed check's fix. ErrorCode and ErrorData are for an error
// envelope that can carry them (the checks, with --json).
type DoctorError struct {
	Checks []DoctorCheck
	err    *calls.Error
}

func (e *DoctorError) Error() string     { return e.err.Msg }
func (e *DoctorError) Unwrap() error     { return e.err }
func (e *DoctorError) ErrorCode() string { return cmdutil.CodeDoctorFailed }
func (e *DoctorError) ErrorData() any    { return doctorReport{OK: false, Checks: e.Checks} }

func doctorRun(ctx context.Context, opts *DoctorOptions) error {
	o := opts.WithDefaults()
	checks := runChecks(ctx, o)
	if err := ctx.Err(); err != nil {
		return err
	}
	var failed []DoctorCheck
	for _, c := range checks {
		if c.Status == checkFail {
			failed = append(failed, c)
		}
	}
	if len(failed) == 0 {
		return o.Emit(doctorReport{OK: true, Checks: checks}, func() error { return printChecks(o, checks) })
	}
	if !o.JSON {
		if err := printChecks(o, checks); err != nil {
			return err
		}
	}
	return doctorError(checks, failed, o.JSON)
}

// doctorError builds the error of a failed run. The human lines are
// printed already, so its message only counts; with --json the message is
// all an agent gets, so it carries each failure.
func doctorError(checks, failed []DoctorCheck, full bool) error {
	names := make([]string, len(failed))
	for i, c := range failed {
		names[i] = c.Name
		if full {
			names[i] = fmt.Sprintf("%s: %s", c.Name, c.Detail)
			if c.Fix != "" {
				names[i] += " (fix: " + c.Fix + ")"
			}
		}
	}
	msg := fmt.Sprintf("%d of %d checks failed: %s", len(failed), len(checks), strings.Join(names, "; "))
	return &DoctorError{Checks: checks, err: &calls.Error{Kind: ErrChecksFailed, Msg: msg, Hint: failed[0].Fix}}
}

// printChecks writes one line a check:
//
//	✓ browser: /usr/bin/chromium (Chromium 148.0.7778.0)
//	✗ headless: … — fix: …
func printChecks(o *DoctorOptions, checks []DoctorCheck) error {
	marks := map[string]string{checkOK: "✓", checkFail: "✗", checkWarn: "!", checkSkip: "-"}
	for _, c := range checks {
		line := fmt.Sprintf("%s %s: %s", marks[c.Status], c.Name, c.Detail)
		if c.Fix != "" && (c.Status == checkFail || c.Status == checkWarn) {
			line += " — fix: " + c.Fix
		}
		if _, err := fmt.Fprintln(o.IO.Out, line); err != nil {
			return err
		}
	}
	return nil
}

// WithDefaults returns a copy of opts with the real checks in nil fields.
func (opts *DoctorOptions) WithDefaults() *DoctorOptions {
	o := *opts
	if o.LoadConfig == nil {
		o.LoadConfig = o.Common.Config
		if o.LoadConfig == nil {
			o.LoadConfig = func() (*config.Config, error) { return config.Default(), nil }
		}
	}
	if o.FindBrowser == nil {
		o.FindBrowser = browser.Find
	}
	if o.BrowserVersion == nil {
		o.BrowserVersion = browserVersion
	}
	if o.RenderPage == nil {
		o.RenderPage = renderPage
	}
	if o.SocketPaths == nil {
		o.SocketPaths = daemon.PathsFor
	}
	if o.ProbeCDP == nil {
		o.ProbeCDP = config.ProbeCDP
	}
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{Timeout: 10 * time.Second}
	}
	if o.FreeSpace == nil {
		o.FreeSpace = freeSpace
	}
	return &o
}

// runChecks runs every check in order; a later one may use what an
// earlier one found (the config, the browser's path).
func runChecks(ctx context.Context, o *DoctorOptions) []DoctorCheck {
	cfg, cfgCheck := checkConfig(o)
	checks := []DoctorCheck{cfgCheck}
	cdpCheck, localNeeded := checkCDP(ctx, o, cfg)
	path, browserCheck := checkBrowser(ctx, o, cfg, localNeeded)
	checks = append(checks, browserCheck, checkHeadless(ctx, o, cfg, path, localNeeded), cdpCheck, CheckNetwork(o, cfg, localNeeded), checkSocket(o))
	checks = append(checks, checkModels(ctx, o, cfg)...)
	return append(checks, checkDisk(o, cfg))
}

// pathOr is what the disk check measures for an empty evidence folder.
func pathOr(p, def string) string {
	if p != "" {
		return p
	}
	if wd, err := os.Getwd(); err == nil {
		return wd
	}
	return def
}
