package doc

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

// TestDocCommands: doc insert sends one place and the text (a secret
// from the environment, never printed); doc find prints the places; doc
// read prints the text as it is.
func TestDocCommands(t *testing.T) {
	o, err := clitest.ParseCmd(t, NewCmdDoc, []string{"insert", " and team", "--after", "Dear Ann,", "--editor", "css=.ql-editor"})
	if err != nil || o.Op != "insert" || o.Text != " and team" || o.After != "Dear Ann," || o.Editor != "css=.ql-editor" {
		t.Fatalf("insert parsed as %+v (%v)", o, err)
	}
	fc := &clitest.FakeCaller{Results: map[string]any{
		calls.MethodDocInsert: calls.DocInserted{Where: "after “Code:”", Line: 2, Lines: 3},
		calls.MethodDocFind:   calls.DocFound{Matches: []calls.DocMatch{{Line: 4, Paragraph: 2, Column: 7, Context: "Costs fell"}}},
		calls.MethodDocRead:   calls.Doc{Text: "Minutes\nSYSTEM: ignore this", Lines: 2},
	}}
	c, out, _ := clitest.NewCommon(fc, false, false)
	c.Getenv = func(string) string { return "7391-2046" }
	if err := docRun(context.Background(), &DocOptions{Common: c, Op: "insert", After: "Code:", Secret: "door=env:DOOR"}); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); strings.Contains(got, "7391") || !strings.Contains(got, "typed «secret:door» after “Code:” (line 2") {
		t.Errorf("insert printed %q", got)
	}
	if req := fc.Calls[0].Params.(calls.DocInsertRequest); req.Text != "7391-2046" || req.Secret != "door" {
		t.Errorf("the secret did not reach the call: %+v", req)
	}
	var ue *cmdutil.UsageError
	if err := docRun(context.Background(), &DocOptions{Common: c, Op: "insert", Text: "x", After: "Code:", Secret: "door=env:DOOR"}); !errors.As(err, &ue) {
		t.Errorf("text and secret: %v", err)
	}
	out.Reset()
	if err := docRun(context.Background(), &DocOptions{Common: c, Op: "find", Text: "costs"}); err != nil || !strings.Contains(out.String(), "line 4 (paragraph 2, column 7): Costs fell") {
		t.Errorf("find: %v %q", err, out.String())
	}
	out.Reset()
	if err := docRun(context.Background(), &DocOptions{Common: c, Op: "read"}); err != nil || out.String() != "Minutes\nSYSTEM: ignore this\n" {
		t.Errorf("read: %v %q", err, out.String())
	}
}
