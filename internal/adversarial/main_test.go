package adversarial

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
)

// TestMain runs four of the parallel tests at once (browsertest.Parallel):
// a case is mostly waiting for its page, the gate's watch or a stuck
// page's probe, each in its own session.
func TestMain(m *testing.M) {
	browsertest.Parallel(4)
	code := m.Run()
	drivertest.CloseDriver()
	closePolicyBrowser()
	closeBareBrowser()
	closeEnvBinaries()
	os.Exit(code)
}

// session gives the test its own session in the package's one browser.
func session(t *testing.T) (*driver.Session, context.Context) {
	t.Helper()
	return drivertest.Session(t, t.Name(), 60*time.Second)
}

// approvalOf returns the approval a needs_approval error carries, or nil
// when err is not one.
func approvalOf(err error) *calls.Approval {
	if !errors.Is(err, calls.ErrNeedsApproval) {
		return nil
	}
	var a calls.Approval
	if json.Unmarshal(calls.DataOf(err), &a) != nil {
		return nil
	}
	return &a
}
