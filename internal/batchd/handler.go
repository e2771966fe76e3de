package batchd

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
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

// DefaultDir is the embedded server's store: beside a socket named by
// hand (a test's, or a second daemon's; batch-NAME for NAME.sock), else in the user's state folder
// ($XDG_STATE_HOME/waymark/batch, ~/.local/state/waymark/batch).
func DefaultDir(socket string, getenv func(string) string) string {
	if socket != "" { // one store a daemon: several may share a folder
		return filepath.Join(filepath.Dir(socket), "batch-"+strings.TrimSuffix(filepath.Base(socket), filepath.Ext(socket)))
	}
	if d := getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "waymark", "batch")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".local", "state", "waymark", "batch")
	}
	return filepath.Join(os.TempDir(), "waymark-batch-"+sanitize(getenv("USER")))
}
