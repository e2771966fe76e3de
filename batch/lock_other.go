//go:build !unix

package batch

import "time"

// lockDir does nothing where there is no flock: one daemon per user is
// the daemon's own lock there.
func lockDir(string, time.Duration) (func(), error) { return func() {}, nil }
