package mcp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"regexp"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/rpc"
)

// Which waymark session a client acts on, and for how long.
//
// A server given [Options.Session] acts on that session, named by a
// person: it is shared (with the shell, with other clients) and outlives
// the server. Without one, each client gets a session of its own, named
// "mcp-" and eight hex digits, which the server closes (its tabs, its
// cookies) when the client leaves: at the end of stdin, or when an HTTP
// client ends its MCP session or stays silent past
// [Options.SessionTimeout]. An HTTP client may name a session itself
// with the endpoint's query, /mcp?session=NAME; that one is shared too,
// but never one named like a client's own ("mcp-" and eight hex digits).

// clientSession is the waymark session one client acts on.
type clientSession struct {
	name  string
	owned bool // named by the server for this client: closed when it leaves
}

// sessionOf picks the session of a client: the one named (by the server's
// options or the client), else one of its own.
func sessionOf(named string) clientSession {
	if named != "" {
		return clientSession{name: named}
	}
	return clientSession{name: "mcp-" + randomID(), owned: true}
}

// randomID is eight hex digits no other server or client is likely to
// have.
func randomID() string {
	var b [4]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	return hex.EncodeToString(b[:])
}

// ownName matches the names sessionOf gives its clients' own sessions.
var ownName = regexp.MustCompile(`(?i)^mcp-[0-9a-f]{8}$`)

// refuseOwnNames refuses an HTTP client that names (/mcp?session=NAME) a
// session of the kind the server gives a client of its own: that session
// is another client's, driven by it alone and closed under anyone else
// when it leaves.
func refuseOwnNames(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if q := r.URL.Query().Get("session"); ownName.MatchString(q) {
			http.Error(w, "bad request: session "+q+" is a name this server gives a client's own session (another client's); name a session of your own, or leave session out to get one", http.StatusBadRequest)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// closeTimeout bounds the close of a session whose client left.
const closeTimeout = 10 * time.Second

// leave closes the session when the server named it: its client is gone
// and no one else knows its name. Closing one that never opened is no
// error.
func (cs clientSession) leave(ctx context.Context, c calls.Caller, log *slog.Logger) {
	if !cs.owned || c == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), closeTimeout)
	defer cancel()
	if err := (rpc.Daemon{Caller: c, Session: cs.name}).CloseSession(ctx); err != nil {
		log.Warn("closing the session of a client that left", "session", cs.name, "err", err)
	}
}

// sessionKey carries the waymark session of a tool call in its context,
// for the tools added through [Options.Extra].
type sessionKey struct{}

// sessionFrom is the waymark session of the client making the call whose
// context is ctx, or fallback outside a call of this package's server.
func sessionFrom(ctx context.Context, fallback string) string {
	if s, ok := ctx.Value(sessionKey{}).(string); ok && s != "" {
		return s
	}
	return fallback
}

// withSession puts the client's session into every request's context.
func withSession(name string) sdk.Middleware {
	return func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			return next(context.WithValue(ctx, sessionKey{}, name), method, req)
		}
	}
}

// toolsKey carries the server's browser tools in a call's context, so
// that act, added through [Options.Extra], answers with the same look at
// the page as click.
type toolsKey struct{}

func toolsFrom(ctx context.Context) *tools {
	t, _ := ctx.Value(toolsKey{}).(*tools)
	return t
}

func withTools(t *tools) sdk.Middleware {
	return func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			return next(context.WithValue(ctx, toolsKey{}, t), method, req)
		}
	}
}
