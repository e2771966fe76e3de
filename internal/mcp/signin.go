package mcp

import (
	"context"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/approval"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/siteapi"
)

// A recipe may name a sign-in routine (relogin): a call the site refuses
// as auth runs it once in the session and calls again (siteapi.Relogin).
// MCP's api_call and the api steps of its replay sign in this way. The
// routine is found as a replay's routine argument is: its path, relative
// to the recipe's file (or to the routine's, for an api step; to the
// working folder for a recipe or routine given as JSON), must lie in the
// working or routines folder (files.go). It is read through the approval
// authority (Options.Approvals) and replayed by replay.SignIn, as the CLI
// does: its recorded submit (Sign in) is pressed only while the file is
// as the person saved it and the client chose none of its values; else it
// is put to the person, if the client can ask them mid-call, or it stops.
// The client cannot approve it. Its secrets are the person's, given to
// the server (Options.Secrets, `waymark mcp --secret`): the client never
// names nor reads them.

// signIn runs the sign-in routines the recipe of a call made for r names;
// holder is the file the recipe is in ("" for JSON), vars the client's
// values, tool the tool's name for a refusal.
func (t *tools) signIn(r *sdk.CallToolRequest, holder, tool string, vars map[string]string) siteapi.SignIn {
	return func(ctx context.Context, name string) error {
		file, err := hostFile(siteapi.ReloginPath(holder, name), tool)
		if err != nil {
			return err
		}
		var rt *routine.Routine
		var trust *approval.Trust
		if t.approvals == nil {
			rt, err = routine.Load(file)
		} else {
			rt, trust, err = t.approvals.Load(file)
		}
		if err != nil {
			return err
		}
		own := map[string]string{} // the client's values of the routine's own variables
		for _, v := range rt.Variables {
			if val, ok := vars[v.Name]; ok && !v.Secret {
				own[v.Name] = val
			}
		}
		ro := replay.Options{Vars: vars, Secrets: t.secrets, NoHand: true, Dir: filepath.Dir(file)}
		if canAskNow(r) {
			ro.Approve = func(ctx context.Context, step string, a calls.Approval) (bool, error) {
				return askNow(ctx, r, "Signing in again by "+name+" asks to "+a.Describe()+"\n(step "+step+")\nAllow it? (Accept presses it once, if the page is still as shown.)")
			}
		}
		_, err = replay.SignIn(ctx, t.s, name, rt, clientValues(rt, trust, own), ro)
		return err
	}
}

// clientValues is the authority's trust in r's recorded approvals, taken
// away when the MCP client chose values r types (vars): the person
// approved the routine's submits, not what the agent now has it type.
func clientValues(r *routine.Routine, trust *approval.Trust, vars map[string]string) *approval.Trust {
	if len(vars) == 0 || !trust.Holds(r) || len(approval.RecordedIn(r)) == 0 {
		return trust
	}
	return trust.Without("the values of its variables came from the MCP client (" + strings.Join(slices.Sorted(maps.Keys(vars)), ", ") +
		"), not from the person who approved it; the person approves each submit when asked, or replays the file themselves with waymark replay")
}
