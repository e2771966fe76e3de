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
	add(s, "form", "Form fields: key, ref, kind, value, options, errors.", func(ctx context.Context, r *sdk.CallToolRequest, _ formIn) (string, calls.Form, error) {
		f, err := t.s.Form(ctx, calls.FormRequest{})
		if err != nil {
			return "", calls.Form{}, err
		}
		if f.Fields == nil {
			f.Fields = []calls.FormField{}
		}
		return formText(f), *f, nil
	})
	add(s, "form_fill", "Fill fields from answers; reads back, never submits.", func(ctx context.Context, r *sdk.CallToolRequest, in formFillIn) (string, calls.FormFillResult, error) {
		res, err := t.s.FillForm(ctx, calls.FormFillRequest{Answers: in.Answers})
		if err != nil {
			return "", calls.FormFillResult{}, err
		}
		if res.Fields == nil {
			res.Fields = []calls.FilledField{}
		}
		if err := res.Unplaced(); err != nil {
			// An error, as the CLI's exit status, with what was filled
			// and its data.
			out := reply(fillSummary(res), *res)
			out.IsError = true
			out.Content = append(failure(err).Content, out.Content...)
			return "", calls.FormFillResult{}, answered(out)
		}
		return fillSummary(res), *res, nil
	})
}

// formText is one line a field: key, kind, ref, what it holds, whether
// it is required, its options and the page's error; structuredContent
// holds the rest (labels, formats, sections, frames).
func formText(f *calls.Form) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d fields on %s", len(f.Fields), calls.PageName(f.URL, f.Title))
	if f.ATS != "" {
		fmt.Fprintf(&b, " (%s)", f.ATS)
	}
	for _, fd := range f.Fields {
		fmt.Fprintf(&b, "\n%s %s", fd.Key, fd.Kind)
		if fd.Ref != "" {
			fmt.Fprintf(&b, " [ref=%s]", fd.Ref)
		}
		fmt.Fprintf(&b, " = %q", fd.Value)
		if fd.Required {
			b.WriteString(" required")
		}
		if len(fd.Options) > 0 {
			opts, _ := json.Marshal(fd.Options)
			fmt.Fprintf(&b, " options %s", opts)
		}
		if fd.Error != "" {
			fmt.Fprintf(&b, " ! %s", fd.Error)
		}
	}
	for _, q := range f.Questions {
		opts, _ := json.Marshal(q.Options)
		fmt.Fprintf(&b, "\nnot on the page yet: %s %q required=%v options %s", q.Kind, q.Label, q.Required, opts)
	}
	for _, n := range f.Notes {
		fmt.Fprintf(&b, "\nnote: %s", n)
	}
	for _, e := range f.Errors {
		fmt.Fprintf(&b, "\nnot read: frame %s: %s", e.Frame, e.Error)
	}
	return b.String()
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
