package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/approval"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/rpc"
	"github.com/waymark-dev/waymark/secret"
)

// Options configure the server. The zero value is valid except for Caller,
// which every tool needs.
type Options struct {
	// Caller makes the calls (the CLI's daemon client); a nil Caller makes
	// every tool fail with a clear error.
	Caller calls.Caller
	// Session is the waymark session the tools act on, named by a person
	// and shared; empty gives each client a session of its own, closed
	// when the client leaves (see sessions.go).
	Session string
	// SessionTimeout ends an HTTP client's MCP session (and closes its
	// own waymark session) after this long with no request; zero means
	// 30 minutes.
	SessionTimeout time.Duration
	// AllowEval registers the eval tool, which runs JavaScript in the page.
	AllowEval bool
	// AllowCapture registers the capture tool, which writes the session's
	// network (redacted) to files on this machine at paths the client
	// names; opt-in like eval (and the tool list stays within its size
	// budget without it, size_test.go).
	AllowCapture bool
	// SiteTools registers the tools that read a site's data rather than
	// its pages: sitemap (discover.go) and api_call (api.go). Opt-in, like
	// eval and capture, so the list every client sends its model on every
	// turn stays within its budget (size_test.go).
	SiteTools bool
	// Apps registers the tools of the applications the outline cannot show
	// (spreadsheets, document editors) from the start; without it they
	// appear (tools/list_changed) once a look names such an application
	// (apptools.go), so the list every client sends its model on every
	// turn stays short.
	Apps bool
	// Submits decides a click or key that would send, pay, delete or
	// confirm when the client cannot ask its person (no elicitation):
	// SubmitsAsk (or empty) refuses it, SubmitsAllow lets it through. A
	// client that can ask always asks. See approve.go.
	Submits string
	// Approvals is the approval authority a sign-in routine is read
	// through (signin.go: a recipe's relogin, for api_call and replay's
	// api steps): its recorded submit is pressed without asking only when
	// the authority says a person saved the file as it is. Nil: no file's
	// approvals are a person's. No tool approves anything.
	Approvals *approval.Authority
	// Secrets are the values of the sign-in routines' secret variables, by
	// name, given by the person who started the server (waymark mcp
	// --secret): typed by a sign-in, masked, never in a reply; no tool
	// names or reads them.
	Secrets map[string]secret.Value
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
Actions reply with the outcome and the changes since your last look ("+" added, "-" removed, "~" an element of that ref now reads so: only what changed), or the whole outline; a field that holds just what you filled is not repeated.
A click or key that would send, pay, delete or confirm is put to the person (the client asks them); it is done only if they accept. You cannot approve it yourself.
Tools a page offers agents are named on the outline's first line ([tools: …]); call them with page_tool (offered once such a page is seen).`

// New builds the MCP server with the browser tools registered, for one
// client's session (see sessions.go). It starts nothing: run it with
// [Serve], [ServeIO] or [ServeListener].
func New(opts Options) *sdk.Server {
	return build(opts, sessionOf(opts.Session)).srv
}

// server is an MCP server for the clients of one waymark session.
type server struct {
	srv    *sdk.Server
	cs     clientSession
	caller calls.Caller
	log    *slog.Logger

	watch  sync.Once
	called atomic.Bool   // a tool was called: the session may be open
	left   chan struct{} // closed once the watched client left and its session is closed
	gone   func(*server) // if set, told when the client left
}

func build(opts Options, cs clientSession) *server {
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
	sv := &server{srv: srv, cs: cs, caller: opts.Caller, log: opts.Logger, left: make(chan struct{})}
	t := &tools{s: calls.Remote{Caller: c, Session: cs.name}, approvals: opts.Approvals, secrets: opts.Secrets, daemon: rpc.Daemon{Caller: c, Session: cs.name}, timeoutMS: timeoutMS(opts.Timeout), id: randomID(), pageTool: &pageToolOffer{srv: srv}}
	t.register(srv, opts.AllowEval)
	if opts.SiteTools {
		t.registerSitemap(srv) // discover.go
		t.registerAPI(srv)     // api.go
	}
	t.registerForms(srv)
	if opts.AllowCapture {
		t.registerCapture(srv) // capture.go
	}
	t.srv = srv
	if opts.Apps {
		t.appSeen(sheetApp + docApp)
	}
	for _, add := range opts.Extra {
		add(srv)
	}
	srv.AddReceivingMiddleware(withSession(cs.name), withApprover(newApprover(opts.Submits)), withTools(t), sv.watchClient, withToolNames)
	return sv
}

// watchClient notices the client's first tool call (the first that may
// open the session) and, from then on, waits for the client to leave to
// close its session.
func (sv *server) watchClient(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if ss, ok := req.GetSession().(*sdk.ServerSession); ok && method == "tools/call" && sv.cs.owned {
			sv.watch.Do(func() {
				sv.called.Store(true)
				go func() {
					defer close(sv.left)
					_ = ss.Wait()
					sv.cs.leave(ctx, sv.caller, sv.log)
					if sv.gone != nil {
						sv.gone(sv)
					}
				}()
			})
		}
		return next(ctx, method, req)
	}
}

// closed waits until the session of a client that left is closed, if the
// client ever called a tool.
func (sv *server) closed() {
	started := true
	sv.watch.Do(func() { started = false })
	if started {
		<-sv.left
	}
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
// The session the server named for its client is closed before it
// returns.
func Serve(ctx context.Context, t sdk.Transport, opts Options) error {
	sv := build(opts, sessionOf(opts.Session))
	err := sv.srv.Run(ctx, t)
	sv.closed()
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
	if errors.Is(err, syscall.EADDRINUSE) {
		// Most often a server started before, still running.
		host, port, _ := net.SplitHostPort(addr)
		next := "8931"
		if n, perr := strconv.Atoi(port); perr == nil && n > 0 && n < 65535 {
			next = strconv.Itoa(n + 1)
		}
		return nil, calls.Errorf(calls.ErrBadInput,
			"stop what listens there (an MCP server of waymark's started before?), or give another port: "+calls.Cmd("mcp --http "+net.JoinHostPort(host, next)),
			"mcp: %s is in use: %v", addr, err)
	}
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
// ctx is done; it closes ln. Each HTTP client (each MCP session) gets a
// server of its own, so its own last look, and its own waymark session
// unless the options or the client name one (/mcp?session=NAME); see
// sessions.go. A request from a web page of another origin is refused
// ([checkOrigin]). The endpoint answers on any path; "/mcp" is the one to
// advertise.
func ServeListener(ctx context.Context, ln net.Listener, opts Options) error {
	var (
		mu      sync.Mutex
		servers = map[*server]bool{} // the clients' servers whose client has not left
	)
	gone := func(sv *server) {
		mu.Lock()
		delete(servers, sv)
		mu.Unlock()
	}
	getServer := func(r *http.Request) *sdk.Server {
		named := opts.Session
		if q := r.URL.Query().Get("session"); q != "" {
			named = q
		}
		sv := build(opts, sessionOf(named))
		sv.gone = gone
		mu.Lock()
		servers[sv] = true
		mu.Unlock()
		return sv.srv
	}
	idle := opts.SessionTimeout
	if idle <= 0 {
		idle = defaultSessionTimeout
	}
	h := sdk.NewStreamableHTTPHandler(getServer, &sdk.StreamableHTTPOptions{Logger: opts.Logger, SessionTimeout: idle})
	hs := &http.Server{Handler: checkOrigin(refuseOwnNames(h)), ReadHeaderTimeout: 10 * time.Second}
	defer func() {
		// The server stops: its clients' sessions end with it.
		mu.Lock()
		defer mu.Unlock()
		for sv := range servers {
			if sv.called.Load() {
				sv.cs.leave(ctx, sv.caller, sv.log)
			}
		}
	}()

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

// defaultSessionTimeout is [Options.SessionTimeout] when it is zero.
const defaultSessionTimeout = 30 * time.Minute

// checkOrigin refuses a request a web page sent from another origin: a
// page the user visits must not drive their browser through this server
// (the MCP spec asks servers to check Origin). Requests with no Origin
// (programs, not pages) pass, and so do pages served from loopback (the
// MCP Inspector's, a local tool's): they run on the user's machine.
func checkOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); o != "" && !loopbackOrigin(o) {
			http.Error(w, "forbidden: requests from web pages of other origins are refused (Origin "+o+")", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// loopbackOrigin reports whether an Origin header names a loopback host
// over http or https ("null", file pages and other schemes do not pass).
func loopbackOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return loopback(u.Hostname())
}
