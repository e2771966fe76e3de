package cmdutil

import (
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
