package mcp

import (
	"testing"

	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
)

// TestMain ends the package's one browser (drivertest.Driver), which the
// browser tests' managers share (sessions.NewShared), each with sessions
// of its own.
func TestMain(m *testing.M) { drivertest.Main(m) }
