package cmdutil

import (
	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/internal/config"
)

// SubmitGate is the Submits of a plain element command: "ask" with
// --ask-submit, "" (allow) with --allow-submit, and otherwise what the
// config file's [session] submits says. Only a value a config file set
// counts: the built-in "ask" is the default of act, run,
// replay and the MCP tools, while a person who names the exact element on
// the command line has chosen it (issue 7).
func (f *Factory) SubmitGate(ask, allow bool) (string, error) {
	switch {
	case ask:
		return "ask", nil
	case allow:
		return "", nil
	}
	cfg, err := f.ReadConfig()
	if err != nil {
		return "", err
	}
	if cfg.Session.Submits == "ask" && cfg.Sources()["session.submits"] != config.SourceDefault {
		return "ask", nil
	}
	return "", nil
}

// AddSubmitsFlags adds --submits (ask, the default, or allow) and
// --allow-submit to a command that runs a routine's steps, replay and
// batch: --allow-submit is the word every element command takes for the
// same approval, so it is taken here too and means --submits allow, over
// whatever --submits says. It sets cmd.PreRunE to apply it; the usages are
// the command's own. [CheckSubmits] checks the value in RunE.
func AddSubmitsFlags(cmd *cobra.Command, submits *string, submitsUsage, allowUsage string) {
	var allowSubmit bool
	cmd.Flags().StringVar(submits, "submits", "ask", submitsUsage)
	cmd.Flags().BoolVar(&allowSubmit, "allow-submit", false, allowUsage)
	cmd.PreRunE = func(*cobra.Command, []string) error {
		if allowSubmit {
			*submits = "allow"
		}
		return nil
	}
}

// CheckSubmits is the usage error for a --submits that [AddSubmitsFlags]
// does not know.
func CheckSubmits(cmd *cobra.Command, submits string) error {
	switch submits {
	case "allow", "ask":
		return nil
	}
	return UsageErrorf(HelpHint(cmd), "--submits must be allow or ask, got %q", submits)
}
