package cmdutil

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/envelope"
	"github.com/waymark-dev/waymark/model/rules"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/replay"
)

// Exit statuses. They are decided in one place, [ExitCode]; their values
// are internal/cli/envelope's, which the front reports its own failures
// with.
const (
	ExitOK          = envelope.ExitOK
	ExitFailed      = envelope.ExitFailed      // what failed on the page
	ExitUsage       = envelope.ExitUsage       // what the user gave is wrong: a flag, a URL, a file, the configuration, no model
	ExitUnavailable = envelope.ExitUnavailable // no browser, daemon or model server to run it on
	ExitCanceled    = envelope.ExitCanceled    // interrupted (128 + SIGINT, as shells report it)
)

// Exit statuses of waymark replay, one for each [replay.Cause], for
// schedulers and CI (routine/FORMAT.md lists them). They sit apart from
// the errors' 2 and 3; a cause this table does not know is [ExitFailed].
var replayExits = map[replay.Cause]int{
	replay.CauseNone:          ExitOK,
	replay.CauseFailed:        ExitFailed,
	replay.CauseLandedAway:    10,
	replay.CauseSignIn:        11,
	replay.CauseVerify:        12,
	replay.CauseReplaced:      13,
	replay.CauseAmbiguous:     14,
	replay.CauseMissing:       15,
	replay.CauseNeedsApproval: 16,
	replay.CauseNeedsModel:    17,
	replay.CausePopup:         18,
	replay.CauseCanceled:      ExitCanceled,
}

// ReplayExit is the exit status of a replay that stopped for c.
func ReplayExit(c replay.Cause) int {
	if n, ok := replayExits[c]; ok {
		return n
	}
	return ExitFailed
}

// Exit statuses of waymark drift: what a replay would do now, apart from
// the replay's causes and from a check that could not run.
const (
	DriftExitFound  = 0  // every element was found
	DriftExitMoved  = 20 // some moved: a replay would heal them with no model
	DriftExitBroken = 21 // some replaced, missing or ambiguous, a page landed elsewhere, or steps with no page to check them on: a replay would stop
)

// DriftExit is the exit status of a drift report. Unreached steps raise
// none.
func DriftExit(rep *replay.DriftReport) int {
	switch {
	case rep.WouldStop():
		return DriftExitBroken
	case rep.WouldHeal():
		return DriftExitMoved
	}
	return DriftExitFound
}

// UsageError is a command line that cannot be run as written: an unknown
// command or flag, a wrong number of arguments, a value out of range.
type UsageError struct {
	Err  error
	Hint string // what to type instead; may be empty
}

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

func UsageErrorf(hint, format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...), Hint: hint}
}

// ExitCode maps an error to the process's exit status, one rule for
// every command:
//
//	0   no error
//	130 canceled (context.Canceled, e.g. Ctrl-C)
//	2   what the user gave is wrong: a flag or argument, a URL that cannot
//	    be parsed, a routine, plan or schema file missing or malformed
//	    (calls.ErrBadInput), the configuration (bad_config), no model
//	    for a command that needs one (needs_model)
//	3   what waymark runs on is not there: the browser, the daemon
//	    (calls.ErrUnavailable, calls.ErrBrowserGone, [ErrNoDaemon]), the
//	    model server (model_unavailable)
//	1   anything else: what failed on the page
//
// A command that reports its own outcome ([ExitError]: replay's causes
// 10–18, drift's 20 and 21) keeps its status.
func ExitCode(err error) int {
	var ec interface{ ExitCode() int }
	switch {
	case err == nil:
		return ExitOK
	case errors.Is(err, context.Canceled):
		return ExitCanceled
	case errors.As(err, &ec):
		return ec.ExitCode()
	}
	return exitOf(ErrorCode(err)) // codes.go
}

// ErrorCode is the "code" of the JSON error envelope: what happened, in
// one snake_case word. Only a failure waymark cannot name is "internal".
func ErrorCode(err error) string {
	var ue *UsageError
	var coded interface{ ErrorCode() string }
	var needsModel *rules.NeedsModelError
	switch {
	case errors.As(err, &coded):
		return coded.ErrorCode()
	case errors.As(err, &ue):
		return codeUsage
	case errors.Is(err, ErrNoDaemon):
		return "unavailable"
	}
	if c := calls.Code(err); c != "internal" {
		return c
	}
	switch {
	case errors.As(err, &needsModel), errors.Is(err, pilot.ErrNoKey), errors.Is(err, pilot.ErrKeyRefused):
		return "needs_model"
	case errors.Is(err, pilot.ErrModelUnavailable), errors.Is(err, pilot.ErrRateLimited), errors.Is(err, pilot.ErrModelTimeout):
		return codeModelUnavailable
	case errors.Is(err, pilot.ErrMalformed), errors.Is(err, pilot.ErrUndecodable):
		return codeModelAnswer
	case errors.Is(err, pilot.ErrBlocked):
		return codeBotCheck
	case errors.Is(err, pilot.ErrBudget):
		return codeBudgetSpent
	case errors.Is(err, pilot.ErrRepeats), errors.Is(err, pilot.ErrBreaker):
		return codeTaskFailed
	case errors.Is(err, pilot.ErrCannot):
		return codeModelCannot
	}
	return "internal"
}

// ErrorHint is the hint that goes with err: the one the driver sent, or a
// default for the category that says what to do next.
func ErrorHint(err error) string {
	var ue *UsageError
	if errors.As(err, &ue) {
		return ue.Hint
	}
	if h := calls.Hint(err); h != "" {
		return h
	}
	switch {
	case errors.Is(err, calls.ErrStaleRef), errors.Is(err, calls.ErrUnknownRef):
		return "run " + calls.Cmd("snapshot -i") + " again for fresh refs"
	case errors.Is(err, calls.ErrNoMatch):
		return "run " + calls.Cmd("snapshot -i") + " to see what the page holds"
	case errors.Is(err, calls.ErrAmbiguous):
		return "use a ref from " + calls.Cmd("snapshot -i") + ", or a narrower locator"
	case errors.Is(err, calls.ErrNeedsModel):
		return "set ANTHROPIC_API_KEY or OPENAI_API_KEY, or pass --model"
	case errors.Is(err, calls.ErrUnavailable), errors.Is(err, ErrNoDaemon):
		return "pass --executable-path PATH (or WAYMARK_BROWSER) to use a Chromium you have, or --cdp PORT|URL to attach to one that runs"
	case errors.Is(err, calls.ErrBrowserGone):
		return "run the command again: a fresh browser starts"
	case errors.Is(err, calls.ErrTimeout):
		return "raise --timeout, or run " + calls.Cmd("snapshot") + " to see what the page shows now"
	}
	return ""
}

// errorMessage is err's text; a bare cancellation reads "canceled".
func errorMessage(err error) string {
	if errors.Is(err, context.Canceled) && calls.Hint(err) == "" {
		return "canceled"
	}
	return err.Error()
}

// PrintError reports err: as the JSON envelope on stdout with --json (an
// agent then reads one object from one stream), as "error:" and "hint:"
// lines on stderr otherwise.
func PrintError(stdout, stderr io.Writer, jsonOut, color bool, err error) {
	body := envelope.ErrorBody{Code: ErrorCode(err), Message: errorMessage(err), Hint: ErrorHint(err)}
	var data any
	if jsonOut {
		// A command whose failure has a result to show (doctor's checks)
		// gives it as the envelope's data.
		// An error of the session's that carries data (the approval of a
		// needs_approval, to be saved and sent back with --approve) gives
		// it, whichever command met it.
		var withData interface{ ErrorData() any }
		if errors.As(err, &withData) {
			data = withData.ErrorData()
		} else if raw := calls.DataOf(err); len(raw) > 0 && json.Valid(raw) {
			data = json.RawMessage(raw)
		}
	}
	envelope.PrintError(stdout, stderr, jsonOut, color, body, data)
}

// WithData is an error whose JSON envelope carries data: what the command
// did or read before it failed.
type WithData struct {
	Err  error
	Data any
}

func (e *WithData) Error() string  { return e.Err.Error() }
func (e *WithData) Unwrap() error  { return e.Err }
func (e *WithData) ErrorData() any { return e.Data }

// HelpHint points at a command's help.
func HelpHint(cmd *cobra.Command) string {
	return "run " + cmdLine(cmd.CommandPath()+" --help") + " for usage"
}

// cmdLine is a command line cobra wrote ("waymark fill TARGET TEXT") as
// a hint names a command (calls.Cmd).
func cmdLine(line string) string {
	return calls.Cmd(strings.TrimPrefix(strings.TrimPrefix(line, "waymark"), " "))
}

// FlagError turns pflag's complaints (unknown flag, bad value) into usage
// errors; installed with SetFlagErrorFunc on the root.
func FlagError(cmd *cobra.Command, err error) error {
	return &UsageError{Err: err, Hint: HelpHint(cmd)}
}

// ArgsRange checks the number of positional arguments.
func ArgsRange(min, max int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) >= min && (max < 0 || len(args) <= max) {
			return nil
		}
		want := fmt.Sprintf("%d", min)
		switch {
		case max < 0:
			want = fmt.Sprintf("at least %d", min)
		case max != min:
			want = fmt.Sprintf("%d to %d", min, max)
		}
		return UsageErrorf("usage: "+cmdLine(cmd.UseLine()), "%s takes %s argument(s), got %d", cmd.CommandPath(), want, len(args))
	}
}

func ExactArgs(n int) cobra.PositionalArgs { return ArgsRange(n, n) }

// UnknownSubcommand is the error for `waymark tab bogus`: cobra would print
// the parent's help and exit 0 instead.
func UnknownSubcommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		names := []string{}
		for _, c := range cmd.Commands() {
			if c.IsAvailableCommand() {
				names = append(names, c.Name())
			}
		}
		return UsageErrorf(HelpHint(cmd), "%s needs a subcommand: %s", cmd.CommandPath(), strings.Join(names, ", "))
	}
	cmd.SuggestionsMinimumDistance = 2
	hint := HelpHint(cmd)
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		hint = "did you mean " + cmdLine(cmd.CommandPath()+" "+s[0]) + "?"
	}
	return UsageErrorf(hint, "unknown command %q for %q", args[0], cmd.CommandPath())
}

// GroupRunE makes a command that only holds subcommands refuse a missing
// or unknown one as a usage error.
func GroupRunE(cmd *cobra.Command, args []string) error {
	return UnknownSubcommand(cmd, args)
}

// NoArgsOrSubcommand is Args for a runnable command that also has
// subcommands (`tab` lists tabs): any argument is a mistyped subcommand.
func NoArgsOrSubcommand(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return UnknownSubcommand(cmd, args)
	}
	return nil
}

// ExitError is a command that ran and reported its own outcome (on stdout
// with --json, on stderr otherwise) and wants a particular exit status.
// Nothing more should be printed for it.
type ExitError struct {
	Code   int
	Msg    string
	Silent bool // already reported
}

func (e *ExitError) Error() string { return e.Msg }

// ExitCode is the status the command asks for.
func (e *ExitError) ExitCode() int { return e.Code }

// Reported says the command already printed the outcome.
func (e *ExitError) Reported() bool { return e.Silent }
