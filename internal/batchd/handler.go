package batchd

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/waymark-dev/waymark/internal/daemon/daemonpath"
)

// Sessions is what the daemon's session manager answers.
type Sessions interface {
	Handle(ctx context.Context, session, method string, params json.RawMessage) (any, error)
	Status() (browser string, sessions int)
	Close() error
}

// Handler is the daemon's handler with batches: batch.* calls go to the
// service, the rest to the sessions.
type Handler struct {
	Sessions Sessions
	Batches  *Service
}

// Handle routes one call.
func (h Handler) Handle(ctx context.Context, session, method string, params json.RawMessage) (any, error) {
	if Handles(method) {
		return h.Batches.Handle(ctx, method, params)
	}
	return h.Sessions.Handle(ctx, session, method, params)
}

// Status is the sessions' status.
func (h Handler) Status() (string, int) { return h.Sessions.Status() }

// Busy keeps the daemon up while a batch has rows left.
func (h Handler) Busy() bool { return h.Batches.Busy() }

// Close stops the batches' worker first (its rows go back to the stream),
// then the browser.
func (h Handler) Close() error {
	return errors.Join(h.Batches.Close(), h.Sessions.Close())
}

// DefaultDir is the embedded server's store, which holds the batches'
// journals and the --key memory: in the user's state folder
// ($XDG_STATE_HOME/waymark/batch, ~/.local/state/waymark/batch), never in
// the runtime folder beside the default socket, which logout and reboot
// empty (a --key row would then run, and order, twice). A daemon on a
// socket named by hand in another folder (a test's, or a second
// daemon's; batch-NAME for NAME.sock) keeps its store beside the socket;
// one named by hand in the runtime folder keeps it in the state folder
// as batch-NAME.
func DefaultDir(socket string, getenv func(string) string) string {
	state := daemonpath.StateDir(getenv)
	if socket == "" {
		return filepath.Join(state, "batch")
	}
	abs, err := filepath.Abs(socket)
	if err != nil {
		abs = socket
	}
	name := strings.TrimSuffix(filepath.Base(abs), filepath.Ext(abs))
	dir := filepath.Dir(abs)
	if dir != daemonpath.RuntimeDir(getenv, os.Getuid(), os.Stat) {
		return filepath.Join(dir, "batch-"+name) // one store a daemon: several may share a folder
	}
	if name == "daemon" {
		return filepath.Join(state, "batch")
	}
	return filepath.Join(state, "batch-"+name)
}
