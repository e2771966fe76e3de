package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/internal/mcp"
)

// MCPOptions are the flags of `waymark mcp`.
type MCPOptions struct {
	Common
	HTTP      string // --http: serve streamable HTTP on this loopback address; empty: stdio
	AllowEval bool   // --allow-eval: offer the eval tool
	Version   string
}

// NewCmdMCP builds `waymark mcp [--http ADDR] [--allow-eval]`.
func NewCmdMCP(f *Factory, runF func(context.Context, *MCPOptions) error) *cobra.Command {
	opts := &MCPOptions{}
	cmd := &cobra.Command{
		Use:   "mcp [--http ADDR] [--allow-eval]",
		Short: "Serve the browser to an agent over MCP",
		Long: `Serve waymark's browser tools over the Model Context Protocol, on stdin and
stdout (for an agent that starts waymark itself), or with --http on a loopback
address with the streamable HTTP transport (the endpoint is /mcp). The tools
act on the session of --session; the daemon starts on the first tool call.
eval (JavaScript in the page) is offered only with --allow-eval.`,
		Example: "  waymark mcp\n  waymark mcp --http 127.0.0.1:8931 --session agent",
		Args:    exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.common()
			opts.Version = f.Version
			if opts.HTTP != "" {
				if err := mcp.CheckAddr(opts.HTTP); err != nil {
					return usageErrorf("give a loopback address, e.g. --http 127.0.0.1:8931", "%v", err)
				}
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return mcpRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.HTTP, "http", "", "serve streamable HTTP on this loopback address (e.g. 127.0.0.1:8931) instead of stdio")
	cmd.Flags().BoolVar(&opts.AllowEval, "allow-eval", false, "offer the eval tool, which runs JavaScript in the page")
	return cmd
}

func mcpRun(ctx context.Context, opts *MCPOptions) error {
	so := mcp.Options{
		Caller:    dialOnCall{dial: opts.Caller},
		Session:   opts.Session,
		AllowEval: opts.AllowEval,
		Version:   opts.Version,
	}
	if opts.HTTP == "" {
		// stdout carries the protocol: nothing else may be printed there.
		return mcp.ServeIO(ctx, opts.IO.In, opts.IO.Out, so)
	}
	ln, err := mcp.Listen(opts.HTTP)
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "serving MCP at http://%s/mcp for session %q; Ctrl-C to stop\n", ln.Addr(), opts.Session)
	return mcp.ServeListener(ctx, ln, so)
}

// dialOnCall dials the daemon on each tool call (the Factory keeps the
// first good connection), so that the server starts without a browser and
// a failed start is a tool error the agent reads, with its hint.
type dialOnCall struct {
	dial func(ctx context.Context) (Caller, error)
}

func (d dialOnCall) Call(ctx context.Context, session, method string, params, result any) error {
	c, err := d.dial(ctx)
	if err != nil {
		return err
	}
	return c.Call(ctx, session, method, params, result)
}
