package api

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/capture"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/pilotflags"
	"github.com/waymark-dev/waymark/siteapi"
)

// APILearnOptions are the flags of `waymark api learn`.
type APILearnOptions struct {
	cmdutil.Common
	Capture    string
	Rows       string
	Out        string
	Page       string
	VarArgs    []string
	Candidates []string
	// NoDiscover skips asking the site what it publishes (discover).
	NoDiscover bool
}

// APICallOptions are the flags of `waymark api call`.
type APICallOptions struct {
	cmdutil.Common
	Recipe  string
	VarArgs []string
	// Secrets are the sign-in routine's secrets (--secret name=env:VAR),
	// for a recipe that names one (relogin).
	Secrets []string
	Pages   int
	Fresh   bool
	Timeout time.Duration
	// AllowSubmit approves, here and now, the one request of the call
	// that is not a read; Approve is an approval file from an earlier
	// call's needs_approval error.
	AllowSubmit bool
	Approve     string
}

// NewCmdAPI builds `waymark api learn|call`.
func NewCmdAPI(f *cmdutil.Factory, learnF func(context.Context, *APILearnOptions) error, callF func(context.Context, *APICallOptions) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "api learn|call",
		Short: "Learn the site's JSON call behind a list, and call it from the tab",
		Long: `Most lists a page shows came from a JSON call the page made. api learn finds
it in a capture (waymark capture start / stop) and writes a recipe
(waymark.api/1) that names where each value of the request comes from —
never the value — and keeps it only when a direct call returns the rows the
browser read. api call makes the call again from a tab of the site: the
browser's own request, each hop checked by the URL policy. A recipe that
names a sign-in routine (relogin) runs it once when the site refuses the
session (401, 403), then calls again.`,
		Example: `  waymark api learn --capture shop.capture.json --rows rows.json --out lamps.api.json
  waymark api call lamps.api.json --pages 10`,
		Args: cobra.ArbitraryArgs,
		RunE: cmdutil.GroupRunE,
	}
	lo := &APILearnOptions{}
	learn := &cobra.Command{
		Use:   "learn --capture FILE --rows FILE",
		Short: "Learn the call behind the rows the browser read from a capture",
		Args:  cmdutil.ExactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			lo.Common = f.Common()
			if lo.Capture == "" || lo.Rows == "" {
				return cmdutil.UsageErrorf("pass --capture FILE ("+calls.Cmd("capture stop FILE")+") and --rows FILE ("+calls.Cmd("extract … --json")+")", "api learn needs a capture and the rows")
			}
			if learnF != nil {
				return learnF(cmd.Context(), lo)
			}
			return apiLearnRun(cmd.Context(), lo)
		},
	}
	learn.Flags().StringVar(&lo.Capture, "capture", "", "the capture file (waymark.capture/1)")
	learn.Flags().StringVar(&lo.Rows, "rows", "", "the rows the browser read: a JSON array of objects, or waymark extract's --json output")
	learn.Flags().StringVar(&lo.Out, "out", "", "write the recipe here (default: print it)")
	learn.Flags().StringVar(&lo.Page, "page", "", "the page the rows were read on (default: the page that made the call)")
	learn.Flags().StringArrayVar(&lo.VarArgs, "var", nil, "a value the person gave (a search's words): name=value; the request's value equal to it becomes %name% (repeatable)")
	learn.Flags().BoolVar(&lo.NoDiscover, "no-discover", false, "do not ask the site what it publishes (its feeds, its platform's JSON view, its OpenAPI endpoints)")
	learn.Flags().StringArrayVar(&lo.Candidates, "candidate", nil, "a URL the site publishes that may hold the rows (a feed, a JSON view): SOURCE=URL or URL (repeatable)")

	co := &APICallOptions{}
	call := &cobra.Command{
		Use:   "call RECIPE",
		Short: "Read the list by an API recipe, from a tab of the site",
		Long: `api call reads: a GET, or a POST api learn proved a read (a GraphQL query,
a JSON-RPC read). Every request it makes — the first, each redirect, each
next page — is checked for acting words (logout, delete, pay…). A request
that is not a read is not sent: the call stops with needs_approval, and
--allow-submit (or --approve with the error's data) lets exactly that
request through once.`,
		Args: cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			co.Common = f.Common()
			co.Recipe = args[0]
			if callF != nil {
				return callF(cmd.Context(), co)
			}
			return apiCallRun(cmd.Context(), co)
		},
	}
	call.Flags().StringArrayVar(&co.VarArgs, "var", nil, "a value of the recipe's variables, and of its sign-in routine's: name=value (repeatable)")
	call.Flags().StringArrayVar(&co.Secrets, "secret", nil, "a secret of the recipe's sign-in routine (relogin): name=env:VAR, or name to type it without echo (repeatable)")
	call.Flags().IntVar(&co.Pages, "pages", 0, "read this many pages (default: every page, up to 100)")
	call.Flags().BoolVar(&co.Fresh, "fresh", false, "read the list even if the site says it has not changed since the last call")
	call.Flags().DurationVar(&co.Timeout, "timeout", 0, "bound the whole call (default 2m)")
	call.Flags().BoolVar(&co.AllowSubmit, "allow-submit", false, "approve now the one request of the call that is not a read (a POST, PUT or PATCH not learned a read, a path whose words act)")
	call.Flags().StringVar(&co.Approve, "approve", "", "an approval file (the data of a needs_approval error, from --json)")
	call.MarkFlagsMutuallyExclusive("allow-submit", "approve")
	cmd.AddCommand(learn, call)
	return cmd
}

// keyValues reads name=value flags.
func keyValues(flag string, args []string) (map[string]string, error) {
	out := map[string]string{}
	for _, a := range args {
		name, val, ok := strings.Cut(a, "=")
		if !ok || name == "" {
			return nil, cmdutil.UsageErrorf("write "+flag+" name=value", "bad %s %q", flag, a)
		}
		out[name] = val
	}
	return out, nil
}

// readRows reads the rows the browser read: an array of objects, an
// object holding one (an extract's answer), or waymark's --json envelope
// around either.
func readRows(path string) ([]map[string]any, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, calls.Errorf(calls.ErrBadInput, "give the file "+calls.Cmd("extract … --json")+" wrote", "%v", err)
	}
	return cmdutil.RowsOf(path, b)
}

func apiLearnRun(ctx context.Context, opts *APILearnOptions) error {
	f, err := capture.ReadFile(opts.Capture)
	if err != nil {
		return calls.Errorf(calls.ErrBadInput, "give the file "+calls.Cmd("capture stop")+" wrote", "%v", err)
	}
	rows, err := readRows(opts.Rows)
	if err != nil {
		return err
	}
	vars, err := keyValues("--var", opts.VarArgs)
	if err != nil {
		return err
	}
	lo := siteapi.LearnOptions{Page: opts.Page, Vars: vars}
	for _, c := range opts.Candidates {
		src, u, ok := strings.Cut(c, "=")
		if !ok || strings.Contains(src, "/") {
			src, u = "given", c
		}
		lo.Candidates = append(lo.Candidates, siteapi.Candidate{URL: u, Source: src})
	}
	if !opts.NoDiscover {
		page := learnPage(opts.Page, f)
		found, note := publishedCandidates(ctx, opts.Remote(), page)
		if note != "" {
			opts.Note("%s", note)
		}
		if len(found) > 0 && lo.Page == "" {
			lo.Page = page // a candidate is probed only on the page's own site
		}
		lo.Candidates = append(lo.Candidates, found...)
	}
	r, rep, err := siteapi.LearnCall(ctx, opts.Remote(), f, rows, lo)
	if err != nil {
		return err
	}
	out, err := r.Marshal()
	if err != nil {
		return err
	}
	if opts.Out != "" {
		if err := cmdutil.WriteFileAtomic(opts.Out, out, 0o644); err != nil {
			return err
		}
	}
	return opts.Emit(map[string]any{"recipe": json.RawMessage(out), "report": rep, "path": opts.Out}, func() error {
		best := rep.Ranked[0]
		for _, rk := range rep.Ranked {
			if rk.URL == r.Request.URL && rk.List == r.Rows {
				best = rk
				break
			}
		}
		from := ""
		if best.Source != "capture" && best.Source != "" {
			from = " (found in " + best.Source + " " + strings.TrimPrefix(best.Exchange, best.Source+":") + ")"
		}
		opts.Note("learned %s %s%s: %d of %d rows at %q, %d field(s); verified by a direct call", best.Method, best.URL, from, best.Rows, best.Of, best.List, best.Fields)
		if rep.Sender != "" {
			opts.Note("sent by %s (by the site's source map)", rep.Sender)
		}
		for _, rk := range rep.Ranked {
			if rk.Source == siteapi.SourceIndexedDB && rk.Rows > 0 {
				opts.Note("the application also keeps %d of the rows in IndexedDB %s", rk.Rows, strings.TrimPrefix(rk.Exchange, rk.Source+":"))
			}
		}
		if len(rep.Unmapped) > 0 {
			opts.Note("not in the answer (a call does not return them): %s", strings.Join(rep.Unmapped, ", "))
		}
		if opts.Out != "" {
			opts.Said("%s", opts.Out)
			return nil
		}
		_, err := opts.IO.Out.Write(out)
		return err
	})
}

func apiCallRun(ctx context.Context, opts *APICallOptions) error {
	r, err := siteapi.Load(opts.Recipe)
	if err != nil {
		return err
	}
	po := pilotflags.PilotOptions{Common: opts.Common, VarArgs: opts.VarArgs, Secrets: opts.Secrets}
	pv, err := po.Vars(opts.Env())
	if err != nil {
		return err
	}
	vars := pv.Values
	raw, err := r.Marshal()
	if err != nil {
		return err
	}
	req := calls.APICallRequest{Recipe: raw, Vars: vars, Pages: opts.Pages, Fresh: opts.Fresh, TimeoutMS: int(opts.Timeout.Milliseconds())}
	if opts.Approve != "" {
		if req.Approve, err = cmdutil.ReadApproval(opts.Approve, "waymark api call RECIPE"); err != nil {
			return err
		}
	}
	once := func(ctx context.Context) (*calls.APICallResult, error) {
		res, err := opts.Remote().CallAPI(ctx, req)
		if a := cmdutil.ApprovalIn(err); a != nil && opts.AllowSubmit && req.Approve == nil {
			req.Approve = a
			res, err = opts.Remote().CallAPI(ctx, req)
		}
		return res, err
	}
	res, signedIn, err := siteapi.Relogin(ctx, r, once, pilotflags.RoutineSignIn(&opts.Common, opts.Recipe, pv))
	if err != nil {
		if k := siteapi.KindOf(err); k != "" {
			return &apiError{err: err, kind: k}
		}
		return err
	}
	// The validators go back into the recipe, so the next call of an
	// unchanged list costs one request.
	if v := (siteapi.Validators{ETag: res.ETag, LastModified: res.LastModified}); !res.Unchanged && v != (siteapi.Validators{}) && (r.Validators == nil || *r.Validators != v) {
		r.Validators = &v
		if b, err := r.Marshal(); err == nil {
			if err := cmdutil.WriteFileAtomic(opts.Recipe, b, 0o644); err != nil {
				opts.Note("the validators were not kept: %v", err)
			}
		}
	}
	data := apiCallJSON{APICallResult: res}
	if signedIn {
		data.Relogin = r.Relogin
	}
	return opts.Emit(data, func() error {
		if res.Unchanged {
			opts.Said("unchanged: the list is as at the last call (1 request, no rows)")
			return nil
		}
		enc := json.NewEncoder(opts.IO.Out)
		for _, row := range res.Rows {
			if err := enc.Encode(row); err != nil {
				return err
			}
		}
		opts.Note("%d row(s) from %d page(s) in %d request(s), %d bytes; ended: %s", len(res.Rows), res.Pages, res.Requests, res.Bytes, res.Ended)
		return nil
	})
}

// apiCallJSON is the data of `api call --json`: the call's result, and
// the sign-in routine run before it when the site had refused the
// session.
type apiCallJSON struct {
	*calls.APICallResult
	Relogin string `json:"relogin,omitempty"`
}

// apiError is a failed call with its kind, which --json reports as the
// envelope's data ({"api_failure": "auth"}) beside the error's code.
type apiError struct {
	err  error
	kind siteapi.Kind
}

func (e *apiError) Error() string { return e.err.Error() }
func (e *apiError) Unwrap() error { return e.err }

// ErrorData is the envelope's data with --json.
func (e *apiError) ErrorData() any { return map[string]string{"api_failure": string(e.kind)} }

// Hint says what to do next; the kind leads it.
func (e *apiError) Hint() string {
	return fmt.Sprintf("(%s) %s", e.kind, calls.Hint(e.err))
}
