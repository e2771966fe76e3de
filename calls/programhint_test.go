package calls_test

import (
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
			"have a person review the approval (calls.ApprovalOf(err)), then do the action again with it (driver.WithApproval)"},
		{"install Chromium (apt-get install chromium) or pass --executable-path", "install Chromium (apt-get install chromium) or set driver.Options.ExecPath"},
		{"check the browser runs (" + calls.Cmd("doctor") + ")", "check the browser runs (`waymark doctor`)"},
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
