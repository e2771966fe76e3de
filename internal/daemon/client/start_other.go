//go:build !unix

package client

import "syscall"

// detached does nothing here; auto-start on this system is untested.
func detached() *syscall.SysProcAttr { return nil }
