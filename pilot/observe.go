package pilot

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/waymark-dev/waymark/calls"
)

// Observation is one element a model points out for a question, checked
// against the page: its ref is on the outline the model was shown.
type Observation struct {
	Ref         string `json:"ref"`
	Line        string `json:"line"`        // the element's outline line
	Description string `json:"description"` // what it is, in the model's words
	Action      string `json:"action"`      // what acting on it would do
}

// ObserveResult lists the candidates, best first.
type ObserveResult struct {
	Observations []Observation `json:"observations"`
	Dropped      []string      `json:"dropped,omitempty"` // refs the model gave that are not on the page
	Usage        Usage         `json:"usage"`
}

var observeSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "candidates": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "ref": {"type": "string", "pattern": "^e[0-9]+$"},
          "description": {"type": "string", "description": "what the element is"},
          "action": {"type": "string", "description": "what clicking, filling or choosing it would do"}
        },
        "required": ["ref", "description", "action"]
      }
    }
  },
  "required": ["candidates"]
}`)

const observeSystem = `You help a user find their way on a web page. You get a question and the page as an outline. Answer with the elements that answer the question, best first (at most 8), each by its ref from the outline, with what it is and what acting on it would do. Use only refs that appear in the outline. If nothing fits, answer with an empty list.`

// Observe asks which elements answer a question, without acting. A page
// behind a bot check gives [ErrBlocked], with no model call.
func (p *Pilot) Observe(ctx context.Context, question string) (*ObserveResult, error) {
	snap, err := p.d.Snapshot(ctx, calls.SnapshotRequest{Interactive: true, Full: true})
	if err != nil {
		return nil, err
	}
	if err := pageBlocked(snap); err != nil {
		return nil, fmt.Errorf("observe: %w", err)
	}
	page, _ := clipLines(p.maskPage(snap.Text), p.opts.MaxPageChars)
	msg := fmt.Sprintf("Question: %s\n\n%s\n\n%s", question, dataNote, fence(page))
	reply, err := p.ask(ctx, Turn{Purpose: PurposeObserve, System: observeSystem, SchemaName: "candidates",
		Schema: observeSchema, Messages: []Message{{Role: RoleUser, Text: msg}}})
	if err != nil {
		return nil, err
	}
	var ans struct {
		Candidates []Observation `json:"candidates"`
	}
	if err := json.Unmarshal(reply.Data, &ans); err != nil {
		return nil, fmt.Errorf("observe: %w: %v", ErrMalformed, err)
	}
	res := &ObserveResult{Observations: []Observation{}, Usage: reply.Usage}
	for _, c := range ans.Candidates {
		ref := strings.TrimPrefix(strings.TrimSpace(c.Ref), "@")
		line := refLine(snap.Text, ref)
		if line == "" {
			res.Dropped = append(res.Dropped, c.Ref)
			continue
		}
		c.Ref, c.Line = ref, p.mask(line)
		c.Description, c.Action = p.mask(c.Description), p.mask(c.Action)
		res.Observations = append(res.Observations, c)
	}
	return res, nil
}
