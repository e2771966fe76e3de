package sheet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/pilotflags"
	"github.com/waymark-dev/waymark/sheet"
)

// SheetOptions are the flags of `waymark sheet …`.
type SheetOptions struct {
	cmdutil.Common
	Op      string // "read", "write", "dump", "fill"
	Range   string // read: the range; write: the cell
	Value   string // write
	File    string // fill: the cells file, "-" for stdin
	Secrets []string
	// AllowSubmit approves the fill here and now (it still writes only
	// while the cells hold what they held when asked); Approve is an
	// approval file a needs_approval error gave.
	AllowSubmit bool
	Approve     string
	Hand        bool
	MaxRows     int
	MaxCols     int
	Stdin       io.Reader
}

// NewCmdSheet builds `waymark sheet read|write|dump|fill`.
func NewCmdSheet(f *cmdutil.Factory, runF func(context.Context, *SheetOptions) error) *cobra.Command {
	opts := &SheetOptions{}
	run := func(cmd *cobra.Command, op string) error {
		opts.Common = f.Common()
		opts.Op = op
		if opts.Stdin == nil {
			opts.Stdin = cmd.InOrStdin()
		}
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return sheetRun(cmd.Context(), opts)
	}
	cmd := &cobra.Command{
		Use:   "sheet read|write|dump|fill",
		Short: "Read and write the page's spreadsheet exactly, as a hand does (no model)",
		Long: `Work the spreadsheet on the page (Google Sheets, Excel for the web, Airtable,
Jspreadsheet, or one described under [[apps]] in waymark.toml) as a hand does:
go to the range (the app's name box, or a click and a shift-click), copy it,
and read the clipboard. Values are what the sheet shows; bold and fill come
from the clipboard's HTML when the app puts it there. Cells print one row a
line, tab separated, with tabs, line breaks and backslashes inside a cell
written \t, \n and \\.`,
		Example: "  waymark sheet read A1:C20\n  waymark sheet write B2 42\n  waymark sheet dump --json\n  waymark sheet fill cells.json --allow-submit",
		Args:    cmdutil.NoArgsOrSubcommand,
		RunE:    func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	read := &cobra.Command{
		Use:   "read RANGE",
		Short: "Read a range (A1:C20, or one cell) through the clipboard",
		Args:  cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Range = args[0]
			return run(cmd, "read")
		},
	}
	write := &cobra.Command{
		Use:   "write CELL VALUE",
		Short: "Type one cell's value, commit it with Enter, and read it back",
		Args:  cmdutil.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Range, opts.Value = args[0], args[1]
			return run(cmd, "write")
		},
	}
	dump := &cobra.Command{
		Use:   "dump",
		Short: "Read the whole used range (1,000 rows × 52 columns at most by default)",
		Long: `Read the sheet's whole used range: every cell copied at once, trailing
blank rows and columns cut, bounded to --max-rows × --max-cols (the output
says when the sheet held more).`,
		Args: cmdutil.ExactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error { return run(cmd, "dump") },
	}
	dump.Flags().IntVar(&opts.MaxRows, "max-rows", calls.SheetDumpRows, "keep at most this many rows")
	dump.Flags().IntVar(&opts.MaxCols, "max-cols", calls.SheetDumpCols, "keep at most this many columns")
	fill := &cobra.Command{
		Use:   "fill FILE",
		Short: "Write several cells from a JSON file, once approved",
		Long: fmt.Sprintf(`Write several cells from a JSON object by reference ("-" reads stdin):
{"B2": "12", "C2": "paid"}; at most %d cells. Writing several cells is
approved like a submit: without approval nothing is written and the command
shows what the cells hold now (exit 1, code needs_approval; with --json the
error's data is the approval). --allow-submit approves at once; --approve
FILE sends back an approval saved from --json. Either way the cells are
written only while they still hold what was shown (code changed otherwise).
Secrets come from the environment and never appear in the output.`, calls.SheetFillMax),
		Example: "  waymark sheet fill cells.json\n  waymark sheet fill cells.json --allow-submit --secret D2=env:PIN",
		Args:    cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.File = args[0]
			return run(cmd, "fill")
		},
	}
	fill.Flags().StringArrayVar(&opts.Secrets, "secret", nil, "a secret cell: CELL=env:VAR (repeatable); typed, never shown")
	fill.Flags().BoolVar(&opts.AllowSubmit, "allow-submit", false, "approve the fill now (it writes only while the cells hold what they hold now)")
	fill.Flags().StringVar(&opts.Approve, "approve", "", "an approval file (the data of a needs_approval error, from --json)")
	fill.MarkFlagsMutuallyExclusive("allow-submit", "approve")
	for _, c := range []*cobra.Command{read, write, dump, fill} {
		c.Flags().BoolVar(&opts.Hand, "hand", false, "move and type at a person's pace")
	}
	cmd.AddCommand(read, write, dump, fill)
	return cmd
}

func sheetRun(ctx context.Context, opts *SheetOptions) error {
	s := opts.Remote()
	switch opts.Op {
	case "read", "dump":
		var g *calls.SheetGrid
		var err error
		if opts.Op == "read" {
			g, err = s.SheetRead(ctx, calls.SheetReadRequest{Range: opts.Range, Hand: opts.Hand})
		} else {
			g, err = s.SheetDump(ctx, calls.SheetDumpRequest{MaxRows: opts.MaxRows, MaxCols: opts.MaxCols, Hand: opts.Hand})
		}
		if err != nil {
			return err
		}
		return opts.Emit(g, func() error { return printGrid(opts.IO.Out, g) })
	case "write":
		res, err := s.SheetWrite(ctx, calls.SheetWriteRequest{Cell: opts.Range, Value: opts.Value, Hand: opts.Hand})
		if err != nil {
			return err
		}
		return opts.Emit(res, func() error {
			mark := "read back"
			if !res.ReadBack {
				mark = res.Error
			}
			_, err := fmt.Fprintf(opts.IO.Out, "%s: %s → %s (%s)\n", res.Cell, cellText(res.Before), cellText(res.After), mark)
			return err
		})
	}
	req, err := opts.fillRequest()
	if err != nil {
		return err
	}
	res, err := s.SheetFill(ctx, req)
	if err != nil && opts.AllowSubmit && req.Approve == nil {
		var a calls.Approval
		if data := calls.DataOf(err); errors.Is(err, calls.ErrNeedsApproval) && len(data) > 0 && json.Unmarshal(data, &a) == nil {
			req.Approve = &a
			res, err = s.SheetFill(ctx, req)
		}
	}
	if err != nil {
		return err
	}
	return opts.Emit(res, func() error {
		for _, c := range res.Cells {
			mark := "read back"
			if !c.ReadBack {
				mark = "NOT TAKEN: " + c.Error
			}
			if _, err := fmt.Fprintf(opts.IO.Out, "%s: %s → %s (%s)\n", c.Cell, cellText(c.Before), cellText(c.After), mark); err != nil {
				return err
			}
		}
		return nil
	})
}

// fillRequest reads the cells file, the secrets and the approval.
func (o *SheetOptions) fillRequest() (calls.SheetFillRequest, error) {
	raw, err := cmdutil.ReadFileOrStdin(o.File, o.Stdin)
	if err != nil {
		return calls.SheetFillRequest{}, cmdutil.UsageErrorf("name a JSON file of cells, or - for stdin", "cannot read the cells: %v", err)
	}
	cells, err := cmdutil.ParseAnswers(raw)
	if err != nil {
		return calls.SheetFillRequest{}, cmdutil.UsageErrorf(`write the cells as one JSON object: {"B2": "12"}`, "%v", err)
	}
	req := calls.SheetFillRequest{Cells: cells, Hand: o.Hand}
	if len(o.Secrets) > 0 {
		if req.Secrets, err = pilotflags.RevealSecrets(o.Common, o.Secrets); err != nil {
			return req, err
		}
	}
	if o.Approve != "" {
		a, err := cmdutil.ReadApproval(o.Approve, "waymark sheet fill FILE")
		if err != nil {
			return req, err
		}
		req.Approve = a
	}
	return req, nil
}

// printGrid writes a grid: a header line, then one row a line, tab
// separated, each cell escaped so that its text cannot make a line or a
// cell of its own.
func printGrid(w io.Writer, g *calls.SheetGrid) error {
	head := fmt.Sprintf("[sheet] %s of %s — %s", g.Range, g.App, g.URL)
	if g.Range == "" {
		head = fmt.Sprintf("[sheet] empty, %s — %s", g.App, g.URL)
	}
	if g.Cut != "" {
		head += " (cut: " + g.Cut + ")"
	}
	if _, err := fmt.Fprintln(w, head); err != nil {
		return err
	}
	for _, tb := range g.Tables {
		if _, err := fmt.Fprintln(w, "[table] "+tb.Summary); err != nil {
			return err
		}
	}
	for _, row := range g.Grid.Rows {
		vals := make([]string, len(row))
		for j, c := range row {
			vals[j] = escapeCell(c)
		}
		if _, err := fmt.Fprintln(w, strings.Join(vals, "\t")); err != nil {
			return err
		}
	}
	return nil
}

// escapeCell writes a cell's value on one line.
func escapeCell(c sheet.Cell) string {
	return strings.NewReplacer(`\`, `\\`, "\t", `\t`, "\n", `\n`, "\r", `\r`).Replace(c.Value)
}

// cellText quotes a cell's value for a one-line message.
func cellText(v string) string { return fmt.Sprintf("%q", v) }
