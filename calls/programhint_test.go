package calls_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

func TestProgramHint(t *testing.T) {
	for _, c := range []struct{ hint, want string }{
		{"run " + calls.Cmd("snapshot -i") + " for fresh refs", "call Session.Snapshot for fresh refs"},
		{"close it with " + calls.Cmd("dialog accept|dismiss"), "close it with Session.Dialog"},
		{"read it with " + calls.Cmd("sheet read B2"), "read it with Session.SheetRead"},
		{"review it, then run the command again with --allow-submit (in place of --ask-submit if you passed it)",
			"have a person review the approval (calls.ApprovalOf(err)), then do the action again with it (driver.WithApproval; through the pilot, ActOptions.Approve)"},
		{"install Chromium (apt-get install chromium) or pass --executable-path", "install Chromium (apt-get install chromium) or set driver.Options.ExecPath"},
		{"check the browser runs (" + calls.Cmd("doctor") + ")", "check the browser runs (`waymark doctor`)"},
		{"check the browser runs (" + calls.Cmd("doctor") + "), or pass another with --executable-path or --cdp",
			"check the browser runs (`waymark doctor`), or pass another with driver.Options.ExecPath or driver.Options.CDP"},
		// The policy is the one the program launched the browser with:
		// neither waymark.toml nor the daemon is the program's.
		{"change the allow and block lists of [policy] in waymark.toml",
			"change the Allow and Block lists of the policy the browser was launched with (policy.Options, driver.Options.Policy)"},
		{"change [policy] private_network in waymark.toml, or pass --private-network to " + calls.Cmd("daemon restart") + " (a setting of the daemon, which every session shares; the restart closes them)",
			"launch the browser with a policy whose PrivateNetwork lets the address through (policy.Options.PrivateNetwork, driver.Options.Policy)"},
		{"allow local files with files = true in [policy] of waymark.toml (or pass --allow-files), then " + calls.Cmd("daemon restart") + "; or serve the folder over http: python3 -m http.server --directory DIR 8000, then open http://localhost:8000/FILE",
			"launch the browser with a policy that allows local files (policy.Options.Files, driver.Options.Policy); or serve the folder over http: python3 -m http.server --directory DIR 8000, then open http://localhost:8000/FILE"},
		{"run the command again: a new browser starts", "close the Browser and launch another (driver.Launch); this one is gone"},
		// A flag is said as the field or option a program sets.
		{"--button is left, right or middle", "ActRequest.Button is left, right or middle"},
		{"give one of --after WORDS, --replace LINE or --end", "give one of DocInsertRequest.After, DocInsertRequest.Replace or DocInsertRequest.End"},
		{"open a page first, or pass --url", "open a page first, or set Cookie.URL"},
		// The flags before a command are the CLI's settings, not the call.
		{"as in " + calls.Cmd("--allow-files open file:///tmp/a.html"), "as in Session.Open"},
		{"", ""},
	} {
		err := calls.Errorf(calls.ErrNoMatch, c.hint, "x")
		if got := calls.ProgramHint(err); got != c.want {
			t.Errorf("ProgramHint(%q)\n got %q\nwant %q", c.hint, got, c.want)
		}
	}
}

// A hint is written for the command line; a program reads it in its own
// words.
func ExampleProgramHint() {
	err := calls.Errorf(calls.ErrStaleRef, "run "+calls.Cmd("snapshot")+" for fresh refs", "@e7 is no longer on the page")
	fmt.Println(calls.Hint(err))
	fmt.Println(calls.ProgramHint(err))
	// Output:
	// run `waymark snapshot` for fresh refs
	// call Session.Snapshot for fresh refs
}

// TestWithHint: a hint added by a layer comes after the error's own, and
// the error keeps its category and data.
func TestWithHint(t *testing.T) {
	inner := &calls.Error{Kind: calls.ErrNotInteractable, Msg: "@e3 is hidden", Hint: "scroll to it", Data: []byte(`{"a":1}`)}
	err := calls.WithHint(fmt.Errorf("%w (waited 5s)", inner), "pass --timeout to wait longer")
	if got := calls.Hint(err); got != "scroll to it; pass --timeout to wait longer" {
		t.Errorf("hint %q", got)
	}
	if got := calls.ProgramHint(err); got != "scroll to it; set a longer timeout (driver.WithTimeout, or the request's TimeoutMS) to wait longer" {
		t.Errorf("program hint %q", got)
	}
	if err.Error() != "@e3 is hidden (waited 5s)" || !errors.Is(err, calls.ErrNotInteractable) || string(calls.DataOf(err)) != `{"a":1}` {
		t.Errorf("%v: category %v, data %s", err, errors.Is(err, calls.ErrNotInteractable), calls.DataOf(err))
	}
	if got := calls.Hint(calls.WithHint(errors.New("x"), "do y")); got != "do y" {
		t.Errorf("hint of an error with none: %q", got)
	}
}
