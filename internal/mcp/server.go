package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/calls"
)

// Options configure the server. The zero value is valid except for Caller,
// which every tool needs.
type Options struct {
	// Caller makes the calls (the CLI's daemon client); a nil Caller makes
	// every tool fail with a clear error.
	Caller calls.Caller
	// Session is the waymark session the tools act on; empty means "default".
	Session string
	// AllowEval registers the eval tool, which runs JavaScript in the page.
	AllowEval bool
	// Version is reported as the server's version; empty means "dev".
	Version string
	// Timeout bounds each page call that waits (navigate, the element
	// actions, wait without its own timeout_ms); zero means the daemon's
	// defaults. The CLI passes [session] timeout of the config file.
	Timeout time.Duration
	// Logger receives the SDK's logs; nil discards them.
	Logger *slog.Logger
	// Extra adds more tools (the pilot's act, observe, extract, run,
	// replay) after the browser tools; nil adds none.
	Extra []func(*sdk.Server)
}

// instructions explain once what the tool descriptions leave out.
const instructions = `waymark drives a browser. Call snapshot to see the page as an outline; elements you can act on carry [ref=eN].
A target is a ref ("e12") or a locator: role=button[name="Pay"], text=Continue, label=Email, placeholder=Search, testid=submit, css=#go.
Actions reply with the outcome and the changes since your last look ("+" added, "-" removed, "~" changed lines), or the whole outline.
A click or key that would send, pay, delete or confirm fails with needs-approval and an approval: to proceed, call again with approve set to it.`

// New builds the MCP server with the browser tools registered. It starts
// nothing: run it with [Serve], [ServeIO] or [ServeListener].
func New(opts Options) *sdk.Server {
	if opts.Session == "" {
		opts.Session = "default"
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	srv := sdk.NewServer(&sdk.Implementation{Name: "waymark", Version: opts.Version}, &sdk.ServerOptions{
		Instructions: instructions,
		Logger:       opts.Logger,
	})
	var c calls.Caller = noConnection{}
	if opts.Caller != nil {
		c = opts.Caller
	}
	t := &tools{s: calls.Remote{Caller: c, Session: opts.Session}, timeoutMS: timeoutMS(opts.Timeout), looks: map[string]string{}}
	t.register(srv, opts.AllowEval)
	for _, add := range opts.Extra {
		add(srv)
	}
	return srv
}

// timeoutMS is d in the wire's milliseconds, rounded up so that a
// positive d stays positive; zero or less is zero, the daemon's default.
func timeoutMS(d time.Duration) int {
	if d <= 0 {
		return 0
	}
	return int((d + time.Millisecond - 1) / time.Millisecond)
}

// Serve runs a new server over one transport until the client disconnects
// or ctx is done.
func Serve(ctx context.Context, t sdk.Transport, opts Options) error {
	err := New(opts).Run(ctx, t)
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return nil // stopped on purpose
	}
	return err
}

// ServeIO serves MCP's stdio framing (one JSON-RPC message a line) on r
// and w until r ends or ctx is done. Neither is closed.
func ServeIO(ctx context.Context, r io.Reader, w io.Writer, opts Options) error {
	return Serve(ctx, &sdk.IOTransport{Reader: io.NopCloser(r), Writer: nopCloser{w}}, opts)
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// Listen listens on addr for [ServeListener], after [CheckAddr].
func Listen(addr string) (net.Listener, error) {
	if err := CheckAddr(addr); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("mcp: listen: %w", err)
	}
	return ln, nil
}

// CheckAddr refuses an HTTP address that is not loopback
// ("127.0.0.1:8931", "[::1]:8931" and "localhost:8931" pass): the server
// drives a browser with the user's sessions and has no authentication.
func CheckAddr(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("mcp: bad address %q: %w (give HOST:PORT, e.g. 127.0.0.1:8931)", addr, err)
	}
	if !loopback(host) {
		return fmt.Errorf("mcp: refusing to listen on %q: only loopback addresses (127.0.0.1, ::1, localhost) are allowed, since the server has no authentication", addr)
	}
	return nil
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ServeListener serves MCP with the streamable HTTP transport on ln until
// ctx is done; it closes ln. Every HTTP client shares one server, so one
// waymark session, but keeps its own last look. The endpoint answers on
// any path; "/mcp" is the one to advertise.
func ServeListener(ctx context.Context, ln net.Listener, opts Options) error {
	srv := New(opts)
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, &sdk.StreamableHTTPOptions{Logger: opts.Logger})
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}

	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { // exits when ctx is done or Serve has returned (stop is closed)
		defer close(done)
		select {
		case <-ctx.Done():
		case <-stop:
			return
		}
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		if hs.Shutdown(sctx) != nil {
			_ = hs.Close() // open event streams outlived the grace period
		}
	}()
	err := hs.Serve(ln)
	close(stop)
	<-done
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}
