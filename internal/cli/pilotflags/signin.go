package pilotflags

import (
	"context"

	"github.com/waymark-dev/waymark/approval"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/siteapi"
)

// RoutineSignIn runs a recipe's sign-in routine (siteapi.Recipe.Relogin)
// as `waymark replay FILE` does, in the command's session: the file is
// read through the approval authority, so a submit a person pressed while
// recording it (the Sign in button) is pressed only while the file is as
// they saved it; its secrets come from --secret, never a prompt's echo or
// the output; heals are reported, not written. holder is the file the
// recipe is in: the routine's path is relative to it.
func RoutineSignIn(c *cmdutil.Common, holder string, vars pilot.Vars) siteapi.SignIn {
	return func(ctx context.Context, name string) error {
		path := siteapi.ReloginPath(holder, name)
		r, trust, err := approval.Default(c.Env()).Load(path)
		if err != nil {
			return err
		}
		ro := replay.Options{Vars: vars.Values, Secrets: vars.Secrets, NoHand: true}
		ro.Dir, ro.VarsDir = cmdutil.FileDirs(path)
		res, err := replay.SignIn(ctx, c.Remote(), name, r, trust, ro)
		if err != nil {
			return err
		}
		c.Note("signed in again by %s (%d step(s))", name, len(res.Steps))
		return nil
	}
}
