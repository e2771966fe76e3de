package siteapi

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/waymark-dev/waymark/calls"
)

// SignIn runs a recipe's sign-in routine, given by its path as the
// recipe names it (Recipe.Relogin), in the session the call is made from.
// Its runner owns how: the CLI replays the routine file as `waymark
// replay` does, with its secrets from --secret and its submits pressed
// only as the approval authority or --allow-submit say.
type SignIn func(ctx context.Context, routine string) error

// Relogin makes a call by call; when it fails as auth and the recipe
// names a sign-in routine, it runs signIn once and makes the call again.
// A second auth failure stops with its cause, said to come after the
// sign-in, so a routine that no longer signs in is not run in a loop.
// signedIn reports that the routine ran. Every front that calls a recipe
// (api call, a replay's api step) goes through here: one sign-in a call.
func Relogin[T any](ctx context.Context, r *Recipe, call func(context.Context) (T, error), signIn SignIn) (res T, signedIn bool, err error) {
	res, err = call(ctx)
	if err == nil || r.Relogin == "" || signIn == nil || KindOf(err) != KindAuth || ctx.Err() != nil {
		return res, false, err
	}
	first := strings.TrimPrefix(err.Error(), "api "+string(KindAuth)+": ")
	if err := signIn(ctx, r.Relogin); err != nil {
		var zero T
		return zero, false, newError(KindAuth, "replay the sign-in routine alone to see where it stops ("+calls.Cmd("replay "+r.Relogin)+"), or sign in on "+r.Site+" by hand, then call again",
			"%s; the sign-in routine %s did not sign in: %v", first, r.Relogin, err)
	}
	res, err = call(ctx)
	if err != nil && KindOf(err) == KindAuth {
		return res, true, newError(KindAuth, "the site refuses the session its sign-in routine made: check the routine still signs in ("+calls.Cmd("replay "+r.Relogin)+"), or sign in by hand",
			"%s, after signing in again by %s", strings.TrimPrefix(err.Error(), "api "+string(KindAuth)+": "), r.Relogin)
	}
	return res, true, err
}

// ReloginPath is a recipe's sign-in routine's path, resolved against the
// folder of the file that holds the recipe (a recipe file, or the routine
// whose api step it is).
func ReloginPath(holder, routine string) string {
	if filepath.IsAbs(routine) || holder == "" {
		return routine
	}
	return filepath.Join(filepath.Dir(holder), routine)
}
