package mcp

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/pilot"
)

// The document tools (issue 19): read a document editor, find words in
// it, type text into it at one place. A document's text is page data: it
// comes back inside the fence a model reads page data in.

type (
	docReadIn struct {
		Editor string `json:"editor,omitempty"`
		HTML   bool   `json:"html,omitempty"`
	}
	docFindIn struct {
		Text   string `json:"text"`
		Editor string `json:"editor,omitempty"`
	}
	docInsertIn struct {
		Text    string `json:"text"`
		After   string `json:"after,omitempty"`
		Replace string `json:"replace,omitempty"`
		End     bool   `json:"end,omitempty"`
		Editor  string `json:"editor,omitempty"`
	}
)

// registerDocs adds doc_read, doc_find and doc_insert.
func (t *tools) registerDocs(s *sdk.Server) {
	add(s, "doc_read", "Document editor's text (select all, copy).", func(ctx context.Context, r *sdk.CallToolRequest, in docReadIn) (string, calls.Doc, error) {
		d, err := t.s.DocRead(ctx, calls.DocReadRequest{Editor: in.Editor, HTML: in.HTML})
		if err != nil {
			return "", calls.Doc{}, err
		}
		body := d.Text
		if in.HTML {
			body = d.HTML
		}
		return fmt.Sprintf("%s, %s, %d lines:\n%s", calls.PageName(d.URL, d.Title), d.Editor, d.Lines, pilot.Fence(body)), *d, nil
	})
	add(s, "doc_find", "Where words are in the document.", func(ctx context.Context, r *sdk.CallToolRequest, in docFindIn) (string, calls.DocFound, error) {
		f, err := t.s.DocFind(ctx, calls.DocFindRequest{Editor: in.Editor, Text: in.Text})
		if err != nil {
			return "", calls.DocFound{}, err
		}
		if len(f.Matches) == 0 {
			f.Matches = []calls.DocMatch{}
			return fmt.Sprintf("%q is not in the document", in.Text), *f, nil
		}
		var b strings.Builder
		for _, m := range f.Matches {
			fmt.Fprintf(&b, "line %d (paragraph %d, column %d)\n", m.Line, m.Paragraph, m.Column)
		}
		var lines []string
		for _, m := range f.Matches {
			lines = append(lines, m.Context)
		}
		b.WriteString("the lines:\n" + pilot.Fence(strings.Join(lines, "\n")))
		return b.String(), *f, nil
	})
	add(s, "doc_insert", "Type text into the document at one place.", func(ctx context.Context, r *sdk.CallToolRequest, in docInsertIn) (string, calls.DocInserted, error) {
		res, err := t.s.DocInsert(ctx, calls.DocInsertRequest{Editor: in.Editor, Text: in.Text, After: in.After, Replace: in.Replace, End: in.End})
		if err != nil {
			return "", calls.DocInserted{}, err
		}
		return fmt.Sprintf("typed %s (line %d; the document has %d lines)", res.Where, res.Line, res.Lines), *res, nil
	})
}
