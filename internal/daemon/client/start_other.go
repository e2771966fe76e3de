//go:build !unix

package client

import (
	"context"
	"syscall"
)

// detached does nothing here; auto-start on this system is untested.
func detached() *syscall.SysProcAttr { return nil }

// lockFile takes no lock here: a second daemon started in a race refuses
// to run ("already running"), and the client then dials the first.
func lockFile(ctx context.Context, path string) (func(), error) { return func() {}, nil }
