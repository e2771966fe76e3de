package e2e

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

// TestActOfSeveralSteps: with no model, act given a sentence of several
// steps does none of them and says which they are, for run or for act
// one at a time (model/rules: Steps); nothing reaches the page.
func TestActOfSeveralSteps(t *testing.T) {
	page := calls.Snapshot{URL: "https://t.test/", Text: "- form:\n  - textbox [ref=e1]\n  - button \"Submit\" [ref=e2]"}
	fc := &clitest.FakeCaller{Results: map[string]any{calls.MethodSnapshot: page}}
	code, stdout, _, _ := runMain(t, context.Background(), fc, nil,
		"act", `Enter "Kasey" into the text field and press Submit.`, "--json", "--model", "rules")
	var env struct {
		Error struct{ Code, Hint string }
		Data  struct{ Steps []string }
	}
	if err := json.Unmarshal([]byte(stdout), &env); err != nil {
		t.Fatalf("%v in %q", err, stdout)
	}
	if code != cmdutil.ExitUsage || env.Error.Code != "bad_input" || !strings.Contains(env.Error.Hint, "`waymark run`") ||
		len(env.Data.Steps) != 2 || env.Data.Steps[1] != "press Submit" {
		t.Errorf("exit %d, %+v, data %+v", code, env.Error, env.Data)
	}
	for _, c := range fc.Calls {
		if c.Method == calls.MethodAct {
			t.Errorf("a step reached the page: %+v", c)
		}
	}
}
