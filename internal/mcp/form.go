package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/calls"
)

// The form tools (issue 17): read the page's forms as fields, and fill
// them from answers without ever submitting.

type (
	formIn     struct{}
	formFillIn struct {
		Answers map[string]string `json:"answers" jsonschema:"by field key or label"`
	}
)

// registerForms adds the form and form_fill tools.
func (t *tools) registerForms(s *sdk.Server) {
	add(s, "form", "Form fields: key, ref, kind, value, options, errors.", func(ctx context.Context, r *sdk.CallToolRequest, _ formIn) (*sdk.CallToolResult, error) {
		f, err := t.s.Form(ctx, calls.FormRequest{})
		if err != nil {
			return failure(err), nil
		}
		return jsonText(f)
	})
	add(s, "form_fill", "Fill fields from answers; reads back, never submits.", func(ctx context.Context, r *sdk.CallToolRequest, in formFillIn) (*sdk.CallToolResult, error) {
		res, err := t.s.FillForm(ctx, calls.FormFillRequest{Answers: in.Answers})
		if err != nil {
			return failure(err), nil
		}
		out := text(fillSummary(res))
		if err := res.Unplaced(); err != nil {
			// An error, as the CLI's exit status, with what was filled.
			f := failure(err)
			out.IsError = true
			out.Content = append(f.Content, out.Content...)
		}
		return out, nil
	})
}

// jsonText answers with a value as compact JSON.
func jsonText(v any) (*sdk.CallToolResult, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return text(string(b)), nil
}

// fillSummary says what a fill did in a few lines: the answered fields,
// what was stopped and what needs a person.
func fillSummary(res *calls.FormFillResult) string {
	var b strings.Builder
	for _, f := range res.Fields {
		if !f.Answered {
			continue
		}
		mark := "ok"
		if !f.ReadBack {
			mark = "NOT TAKEN: " + f.Error
		}
		fmt.Fprintf(&b, "%s = %q %s\n", f.Key, f.After, mark)
	}
	for _, s := range res.Stopped {
		fmt.Fprintf(&b, "stopped: %s\n", s)
	}
	if n := calls.ChatterNote(res.Chatter); n != "" {
		fmt.Fprintf(&b, "%s\n", n)
	}
	for _, s := range res.NeedsPerson {
		fmt.Fprintf(&b, "needs a person: %s\n", s)
	}
	return strings.TrimRight(b.String(), "\n")
}
