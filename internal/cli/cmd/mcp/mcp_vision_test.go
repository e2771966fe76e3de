package mcp

import (
	"context"
	"errors"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

// `waymark mcp --vision always` with the rules model: the act tool says
// the model reads no pictures, as bad input; a bad --vision stops the
// server from starting.
func TestMCPVision(t *testing.T) {
	c := clitest.PageCaller()
	common, _, _ := clitest.NewCommon(c, false, false)
	common.Getenv = func(string) string { return "" }
	cs := mcpClient(t, &MCPOptions{Common: common, NamedSession: true, Vision: "always"})
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "act", Arguments: map[string]any{"instruction": "click Go"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(*sdk.TextContent).Text; !res.IsError || !strings.Contains(got, "reads no pictures") || !strings.Contains(got, "code: bad_input") {
		t.Errorf("act with --vision always and the rules model: isError=%v %q", res.IsError, got)
	}
	bad, _, _ := clitest.NewCommon(&clitest.FakeCaller{}, false, false)
	bad.Getenv = func(string) string { return "" }
	if err := mcpRun(context.Background(), &MCPOptions{Common: bad, Vision: "sometimes"}); !errors.As(err, new(*cmdutil.UsageError)) {
		t.Errorf("mcp --vision sometimes: %v; want a usage error", err)
	}
}
