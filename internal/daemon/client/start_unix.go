//go:build unix

package client

import "syscall"

// detached puts the daemon in a session of its own, so the terminal that
// started it can close without taking it along.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
