package mcp

import (
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/pilot"
)

// With no model key the model is the rules model, and MCP offers act
// alone (PilotOptions.ActOnly): no run tool, for the tool list's size
// budget (size_test.go) and because a run with the rules model is only
// ever plain steps. The rules model splits a sentence of several plain
// steps (rules.Steps) and refuses it to act as one step
// (rules.MultiStepError); act then does what `waymark run` does with no
// key: the same pilot.Run, the rules model answering one step a turn,
// its submits under the same gate as the run tool's. No tool and no
// argument is added: the sentence the agent gave is the task.

// actSteps runs an act instruction of several plain steps as a task, and
// answers as act does: what was done, then the page's changes since the
// agent's last look.
func actSteps(ctx context.Context, r *sdk.CallToolRequest, p *pilot.Pilot, in actIn) (string, pilotActOut, error) {
	text, _, err := runTask(ctx, r, p, runIn{Task: in.Instruction, Inputs: in.Vars})
	if res, ok := answeredWith(err); ok {
		res.StructuredContent = nil // the run's, not of act's schema
		return "", pilotActOut{}, answered(res)
	}
	if err != nil {
		return "", pilotActOut{}, err
	}
	var out pilotActOut
	if t := toolsFrom(ctx); t != nil {
		text, out.Look = t.look(ctx, r, text)
	}
	return text, out, nil
}
