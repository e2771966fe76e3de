package doc

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/pilotflags"
	"github.com/waymark-dev/waymark/secret"
)

// DocOptions are the flags of `waymark doc …`.
type DocOptions struct {
	cmdutil.Common
	Op      string // "read", "find", "insert"
	Editor  string
	HTML    bool
	Text    string
	After   string
	Replace string
	End     bool
	Secret  string // insert: name=env:VAR, the text typed and never shown
	Hand    bool
}

// NewCmdDoc builds `waymark doc read|find|insert`.
func NewCmdDoc(f *cmdutil.Factory, runF func(context.Context, *DocOptions) error) *cobra.Command {
	opts := &DocOptions{}
	run := func(cmd *cobra.Command, op string) error {
		opts.Common = f.Common()
		opts.Op = op
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return docRun(cmd.Context(), opts)
	}
	cmd := &cobra.Command{
		Use:   "doc read|find|insert",
		Short: "Read a document editor, find words in it, type text into it at one place",
		Long: `Work a document editor (Google Docs-like editors, Quill, ProseMirror, TipTap,
CodeMirror, any contenteditable area) as a hand would: the editor is read by
selecting all and copying (the clipboard's text, and its HTML with --html),
and written by putting the caret at words it holds and typing. The editor is
the focused one, else the largest on the page, or the one --editor names.`,
		Example: "  waymark doc read\n  waymark doc find \"total due\"\n  waymark doc insert \" and team\" --after \"Dear Ann,\"\n  waymark doc insert \"Costs fell by 3 %\" --replace \"Costs fell\"\n  waymark doc insert \"Signed, Ann\" --end",
		Args:    cmdutil.NoArgsOrSubcommand,
		RunE:    func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	cmd.PersistentFlags().StringVar(&opts.Editor, "editor", "", "the editor: a ref or a locator (css=.ql-editor); default: the focused or largest one")
	read := &cobra.Command{
		Use:   "read",
		Short: "The document's text (select all, copy), and its HTML with --html",
		Args:  cmdutil.ExactArgs(0),
		RunE:  func(cmd *cobra.Command, args []string) error { return run(cmd, "read") },
	}
	read.Flags().BoolVar(&opts.HTML, "html", false, "print the clipboard's HTML (headings, lists, bold) instead of its text")
	find := &cobra.Command{
		Use:   "find TEXT",
		Short: "Where words are in the document (line, paragraph, column), case-insensitively",
		Args:  cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Text = args[0]
			return run(cmd, "find")
		},
	}
	insert := &cobra.Command{
		Use:   "insert [TEXT] (--after WORDS | --replace LINE | --end)",
		Short: "Type text right after words, over one line, or on a new line at the end",
		Long: fmt.Sprintf(`Type text into the document with the hand's keys at one place: right after
WORDS (--after), over a whole LINE (--replace, at most %d characters, with
text of at most %d), or on a new line at the end (--end). Words the document
holds twice are refused with both places named, and nothing is typed. "\n"
in TEXT starts a new paragraph. The document is read back after, and the
text must be there, once, where asked. A secret (--secret name=env:VAR) is
typed in TEXT's place and never shown.`, calls.MaxDocReplace, calls.MaxDocReplace),
		Example: "  waymark doc insert \" and team\" --after \"Dear Ann,\"\n  waymark doc insert --secret code=env:CODE --after \"Door code: \"",
		Args:    cmdutil.ArgsRange(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Text = args[0]
			}
			return run(cmd, "insert")
		},
	}
	insert.Flags().StringVar(&opts.After, "after", "", "type right after these words")
	insert.Flags().StringVar(&opts.Replace, "replace", "", "type over this whole line")
	insert.Flags().BoolVar(&opts.End, "end", false, "type on a new line at the end")
	insert.Flags().StringVar(&opts.Secret, "secret", "", "type a secret instead of TEXT: name=env:VAR; never shown")
	insert.Flags().BoolVar(&opts.Hand, "hand", false, "type at a person's pace")
	cmd.AddCommand(read, find, insert)
	return cmd
}

func docRun(ctx context.Context, opts *DocOptions) error {
	s := opts.Remote()
	switch opts.Op {
	case "find":
		res, err := s.DocFind(ctx, calls.DocFindRequest{Editor: opts.Editor, Text: opts.Text})
		if err != nil {
			return err
		}
		return opts.Emit(res, func() error {
			if len(res.Matches) == 0 {
				opts.Note("%q is not in the document (%s)", opts.Text, res.Editor)
			}
			for _, m := range res.Matches {
				fmt.Fprintf(opts.IO.Out, "line %d (paragraph %d, column %d): %s\n", m.Line, m.Paragraph, m.Column, m.Context)
			}
			return nil
		})
	case "insert":
		req := calls.DocInsertRequest{Editor: opts.Editor, Text: opts.Text, After: opts.After, Replace: opts.Replace, End: opts.End, Hand: opts.Hand}
		if opts.Secret != "" {
			if opts.Text != "" {
				return cmdutil.UsageErrorf("give TEXT or --secret, not both", "two texts to type")
			}
			var err error
			if req.Secret, req.Text, err = pilotflags.RevealSecret(opts.Common, opts.Secret); err != nil {
				return err
			}
		}
		res, err := s.DocInsert(ctx, req)
		if err != nil {
			return err
		}
		return opts.Emit(res, func() error {
			what := fmt.Sprintf("%q", res.Text)
			if req.Secret != "" {
				what = secret.Mark(req.Secret)
			}
			opts.Said("typed %s %s (line %d; the document has %d lines)", what, res.Where, res.Line, res.Lines)
			return nil
		})
	}
	res, err := s.DocRead(ctx, calls.DocReadRequest{Editor: opts.Editor, HTML: opts.HTML})
	if err != nil {
		return err
	}
	return opts.Emit(res, func() error {
		if opts.HTML {
			fmt.Fprintln(opts.IO.Out, res.HTML)
			return nil
		}
		fmt.Fprint(opts.IO.Out, res.Text)
		if res.Text != "" && res.Text[len(res.Text)-1] != '\n' {
			fmt.Fprintln(opts.IO.Out)
		}
		return nil
	})
}
