package form

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/pilotflags"
)

// FormOptions are the flags of `waymark form …`.
type FormOptions struct {
	cmdutil.Common
	Op      string // "read", "fill", "review"
	File    string // fill: the answers file, "-" for stdin
	Secrets []string
	Hand    bool
	Stdin   io.Reader
}

// NewCmdForm builds `waymark form`, `waymark form fill FILE` and
// `waymark form review`.
func NewCmdForm(f *cmdutil.Factory, runF func(context.Context, *FormOptions) error) *cobra.Command {
	opts := &FormOptions{}
	run := func(cmd *cobra.Command, op string) error {
		opts.Common = f.Common()
		opts.Op = op
		if opts.Stdin == nil {
			opts.Stdin = cmd.InOrStdin()
		}
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return formRun(cmd.Context(), opts)
	}
	cmd := &cobra.Command{
		Use:   "form [fill FILE|review]",
		Short: "Read the page's forms as fields, fill them from answers, review a multi-step form",
		Long: `Read the forms of the page as a ledger of fields: a stable key for answers
(email, experience[2].company), the ref, the label, the kind (text, textarea,
select, combobox, typeahead, radio, checkbox, date, file, richtext, slider),
required, the value (secrets and card numbers hidden), the options, and what
the page says is wrong. Fields in iframes (cross-site too) and open shadow
roots count; a frame that cannot be read is named, never taken as empty.`,
		Example: "  waymark form\n  waymark form fill answers.json --secret card_number=env:CARD\n  waymark form review --json",
		Args:    cmdutil.NoArgsOrSubcommand,
		RunE:    func(cmd *cobra.Command, args []string) error { return run(cmd, "read") },
	}
	fill := &cobra.Command{
		Use:   "fill FILE",
		Short: "Fill the page's fields from a JSON file of answers; never submits",
		Long: `Fill fields from answers, a JSON object by key or label ("-" reads stdin):
{"email": "ann@example.com", "country": "France", "remote": true,
 "experience[3].company": "Initech"}. Each field is filled as its kind needs
(a typeahead's option clicked, a date in the field's format, a file dropped
on a drop zone), every write is read back, and a refused value is tried once
more with the page's error in mind. Fields an answer reveals are filled in
later rounds, "Add another" is pressed for extra copies of a section. Filling
never presses Enter or a submit control, and the page's own attempts to send
are stopped and listed. An answer no field takes is reported, never put in a
near one. Secrets come from the environment and never appear in the output.
A file field's answer is a path: a relative one is read from the answers
file's folder (from the working folder for "-"), as paths written in a
file are; the browser reads no folder of its own.`,
		Example: "  waymark form fill answers.json\n  waymark form fill - --secret card_number=env:CARD < answers.json",
		Args:    cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.File = args[0]
			return run(cmd, "fill")
		},
	}
	fill.Flags().StringArrayVar(&opts.Secrets, "secret", nil, "a secret answer: key=env:VAR, or key alone to type it without echo (repeatable); never shown")
	fill.Flags().BoolVar(&opts.Hand, "hand", false, "type at a person's pace")
	review := &cobra.Command{
		Use:   "review",
		Short: "Every page of a multi-step form the session went through, with its values",
		Args:  cmdutil.ExactArgs(0),
		RunE:  func(cmd *cobra.Command, args []string) error { return run(cmd, "review") },
	}
	cmd.AddCommand(fill, review)
	return cmd
}

func formRun(ctx context.Context, opts *FormOptions) error {
	s := opts.Remote()
	switch opts.Op {
	case "fill":
		req, err := opts.fillRequest()
		if err != nil {
			return err
		}
		res, err := s.FillForm(ctx, req)
		if err != nil {
			return err
		}
		if err := res.Unplaced(); err != nil {
			// What was filled is told all the same; the status says not
			// every answer is on the page.
			if !opts.JSON {
				if perr := printFill(opts.IO.Out, res); perr != nil {
					return perr
				}
			}
			return &cmdutil.WithData{Err: err, Data: res}
		}
		return opts.Emit(res, func() error { return printFill(opts.IO.Out, res) })
	case "review":
		res, err := s.FormReview(ctx, calls.FormReviewRequest{})
		if err != nil {
			return err
		}
		return opts.Emit(res, func() error {
			if len(res.Pages) == 0 {
				opts.Note("no form pages read or filled in session %q yet", opts.Session)
			}
			for i, p := range res.Pages {
				fmt.Fprintf(opts.IO.Out, "[page %d] %s\n", i+1, calls.PageName(p.URL, p.Title))
				printFields(opts.IO.Out, p.Fields)
			}
			return nil
		})
	}
	res, err := s.Form(ctx, calls.FormRequest{})
	if err != nil {
		return err
	}
	return opts.Emit(res, func() error {
		head := "[page] " + calls.PageName(res.URL, res.Title)
		if res.ATS != "" {
			head += " [ats: " + res.ATS + "]"
		}
		fmt.Fprintln(opts.IO.Out, head)
		printFields(opts.IO.Out, res.Fields)
		printQuestions(opts.IO.Out, res)
		for _, e := range res.Errors {
			fmt.Fprintf(opts.IO.Out, "[unread frame] %s: %s\n", e.Frame, e.Error)
		}
		return nil
	})
}

// fillRequest reads the answers file and the secrets.
func (o *FormOptions) fillRequest() (calls.FormFillRequest, error) {
	raw, err := cmdutil.ReadFileOrStdin(o.File, o.Stdin)
	if err != nil {
		return calls.FormFillRequest{}, cmdutil.UsageErrorf("name a JSON file of answers, or - for stdin", "cannot read the answers: %v", err)
	}
	answers, err := cmdutil.ParseAnswers(raw)
	if err != nil {
		return calls.FormFillRequest{}, err
	}
	// Only the driver knows which answers are files, so the request
	// carries the folder their relative paths are read from: the answers
	// file's, as paths written in a file are (a routine's too), or the
	// working folder's for stdin. The daemon, whose folder is no one's,
	// reads none of its own (driver.Options.RemoteCallers).
	dir, wd := cmdutil.FileDirs(o.File)
	if o.File == "-" {
		dir = wd
	}
	req := calls.FormFillRequest{Answers: answers, Hand: o.Hand, Dir: dir}
	if len(o.Secrets) > 0 {
		if req.Secrets, err = pilotflags.RevealSecrets(o.Common, o.Secrets); err != nil {
			return req, err
		}
	}
	return req, nil
}

// printFields writes one line a field.
func printFields(w io.Writer, fields []calls.FormField) {
	for _, f := range fields {
		var b strings.Builder
		fmt.Fprintf(&b, "- %s %s %q", f.Key, f.Kind, f.Label)
		if f.Ref != "" {
			fmt.Fprintf(&b, " [ref=%s]", f.Ref)
		}
		if f.Required {
			b.WriteString(" required")
		}
		if f.Format != "" {
			fmt.Fprintf(&b, " (%s)", f.Format)
		}
		fmt.Fprintf(&b, " = %q", f.Value)
		if len(f.Options) > 0 {
			fmt.Fprintf(&b, " options: %s", strings.Join(quoteOptions(f.Options, 10), ", "))
		}
		if f.Error != "" {
			fmt.Fprintf(&b, " ! %s", f.Error)
		}
		if f.Frame != "" {
			fmt.Fprintf(&b, " (in frame %s)", f.Frame)
		}
		fmt.Fprintln(w, b.String())
	}
}

// printQuestions prints the questions of the form's published definition
// that no field matched, and the read's notes.
func printQuestions(w io.Writer, f *calls.Form) {
	for _, q := range f.Questions {
		line := fmt.Sprintf("[not on the page yet] %s %q", q.Kind, q.Label)
		if q.Required {
			line += " required"
		}
		if len(q.Options) > 0 {
			line += " options: " + strings.Join(quoteOptions(q.Options, 10), ", ")
		}
		fmt.Fprintln(w, line)
	}
	for _, n := range f.Notes {
		fmt.Fprintf(w, "[note] %s\n", n)
	}
}

func quoteOptions(items []string, max int) []string {
	var out []string
	for i, s := range items {
		if i == max {
			out = append(out, fmt.Sprintf("… %d more", len(items)-max))
			break
		}
		out = append(out, strconv.Quote(s))
	}
	return out
}

// printFill writes what a fill did: the fields answered, then what still
// needs a person.
func printFill(w io.Writer, res *calls.FormFillResult) error {
	fmt.Fprintf(w, "[page] %s (%d round(s))\n", res.URL, res.Rounds)
	fields := append([]calls.FilledField(nil), res.Fields...)
	sort.SliceStable(fields, func(i, j int) bool { return fields[i].Answered && !fields[j].Answered })
	for _, f := range fields {
		if !f.Answered {
			continue
		}
		mark := "ok"
		if !f.ReadBack {
			mark = "NOT TAKEN"
		}
		line := fmt.Sprintf("- %s %s: %q → %q %s", f.Key, f.Kind, f.Before, f.After, mark)
		if f.Tries > 1 {
			line += fmt.Sprintf(" (%d tries)", f.Tries)
		}
		if f.Error != "" {
			line += " ! " + f.Error
		}
		fmt.Fprintln(w, line)
	}
	for _, s := range res.Stopped {
		fmt.Fprintf(w, "[stopped] the page tried to send: %s\n", s)
	}
	if n := calls.ChatterNote(res.Chatter); n != "" {
		fmt.Fprintf(w, "[sent] %s\n", n)
	}
	for _, s := range res.NeedsPerson {
		fmt.Fprintf(w, "[needs a person] %s\n", s)
	}
	for _, e := range res.Errors {
		fmt.Fprintf(w, "[unread frame] %s: %s\n", e.Frame, e.Error)
	}
	return nil
}
