package cli

import (
	"encoding/json"
	"os"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

// readApproval reads an approval file: the data of a needs_approval error
// (--json), saved unchanged. cmd names the command that gave it, for the
// hint.
func readApproval(path, cmd string) (*calls.Approval, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, cmdutil.UsageErrorf("name the file the approval was saved in", "cannot read the approval: %v", err)
	}
	var a calls.Approval
	if err := json.Unmarshal(b, &a); err != nil || a.Token == "" {
		return nil, cmdutil.UsageErrorf("save the data of the needs_approval error ("+cmd+" --json) unchanged", "%s is not an approval", path)
	}
	return &a, nil
}

// approvalIn returns the approval a needs_approval error carries, or nil.
func approvalIn(err error) *calls.Approval {
	var a calls.Approval
	if data := calls.DataOf(err); err == nil || len(data) == 0 || json.Unmarshal(data, &a) != nil || a.Token == "" {
		return nil
	}
	return &a
}
