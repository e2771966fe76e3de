package look

import (
	"context"
	"fmt"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

func TestConsoleAndNetworkRun(t *testing.T) {
	con := calls.ConsoleLog{Messages: []calls.ConsoleMessage{
		{Seq: 1, Level: "error", Source: "exception", Text: "uncaught: boom", URL: "http://shop.test/app.js", Line: 3},
		{Seq: 2, Level: "log", Source: "console", Text: "ready"},
	}, Errors: 1, Next: 2}
	nl := calls.NetworkLog{Requests: []calls.Request{
		{Seq: 3, Method: "GET", URL: "http://shop.test/", Type: "document", Status: 200, DurationMS: 12},
		{Seq: 4, Method: "POST", URL: "http://shop.test/api", Type: "fetch", Failed: "net::ERR_CONNECTION_RESET", DurationMS: 3},
		{Seq: 5, Method: "GET", URL: "http://shop.test/slow", Type: "xhr", Pending: true},
	}, Failed: 1, Next: 5}
	console := func(req calls.ConsoleRequest) func(context.Context, cmdutil.Common) error {
		return func(ctx context.Context, c cmdutil.Common) error {
			return consoleRun(ctx, &ConsoleOptions{Common: c, Request: req})
		}
	}
	network := func(ctx context.Context, c cmdutil.Common) error { return networkRun(ctx, &NetworkOptions{Common: c}) }
	noDaemon := fmt.Errorf("dial: %w", cmdutil.ErrNoDaemon)
	clitest.CheckRuns(t, []clitest.RunCase{
		{
			Name:       "console",
			Results:    map[string]any{calls.MethodConsole: con},
			Run:        console(calls.ConsoleRequest{}),
			WantStdout: "error\texception\tuncaught: boom\thttp://shop.test/app.js:3\nlog\tconsole\tready\t\n",
			WantCalls:  []string{calls.MethodConsole},
		},
		{
			Name:       "console, none",
			Results:    map[string]any{calls.MethodConsole: calls.ConsoleLog{}},
			Run:        console(calls.ConsoleRequest{Errors: true}),
			WantStderr: "no console messages in session \"s1\"\n",
		},
		{
			Name:       "console, no daemon, json",
			JSON:       true,
			Errs:       map[string]error{calls.MethodConsole: noDaemon},
			Run:        console(calls.ConsoleRequest{}),
			WantStdout: `{"ok":true,"data":{"messages":[],"errors":0,"dropped":0,"next":0}}` + "\n",
		},
		{
			Name:       "network",
			Results:    map[string]any{calls.MethodNetwork: nl},
			Run:        network,
			WantStdout: "200\tGET\tdocument\t12 ms\thttp://shop.test/\nnet::ERR_CONNECTION_RESET\tPOST\tfetch\t3 ms\thttp://shop.test/api\npending\tGET\txhr\t\thttp://shop.test/slow\n",
		},
		{
			Name:       "network, no daemon, json",
			JSON:       true,
			Errs:       map[string]error{calls.MethodNetwork: noDaemon},
			Run:        network,
			WantStdout: `{"ok":true,"data":{"requests":[],"failed":0,"dropped":0,"next":0}}` + "\n",
		},
	})
}
