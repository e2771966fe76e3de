package cmdutil

import (
	"encoding/json"
	"os"

	"github.com/waymark-dev/waymark/calls"
)

// ReadApproval reads an approval file: the data of a needs_approval error
// (--json), saved unchanged. cmd names the command that gave it, for the
// hint.
func ReadApproval(path, cmd string) (*calls.Approval, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, UsageErrorf("name the file the approval was saved in", "cannot read the approval: %v", err)
	}
	var a calls.Approval
	if err := json.Unmarshal(b, &a); err != nil || a.Token == "" {
		return nil, UsageErrorf("save the data of the needs_approval error ("+cmd+" --json) unchanged", "%s is not an approval", path)
	}
	return &a, nil
}

// ApprovalIn returns the approval a needs_approval error carries, or nil.
func ApprovalIn(err error) *calls.Approval {
	var a calls.Approval
	if data := calls.DataOf(err); err == nil || len(data) == 0 || json.Unmarshal(data, &a) != nil || a.Token == "" {
		return nil
	}
	return &a
}
