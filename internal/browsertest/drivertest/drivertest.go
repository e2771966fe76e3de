// Package drivertest gives tests of the driver and what stands on it one
// waymark browser per test package and a fresh session per test. It is
// apart from browsertest so that packages the driver imports can use
// browsertest in their own tests without a cycle.
package drivertest

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
)

var (
	driverOnce    sync.Once
	driverBrowser *driver.Browser
	driverErr     error
)

// Driver returns the package's one waymark browser (driver.Launch with
// GuardArgs), started on first use. Call CloseDriver from TestMain.
func Driver(t testing.TB) *driver.Browser {
	t.Helper()
	path := browsertest.Chrome(t)
	driverOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		driverBrowser, driverErr = driver.Launch(ctx, driver.Options{ExecPath: path, Args: browsertest.GuardArgs})
	})
	if driverErr != nil {
		t.Fatalf("launch: %v", driverErr)
	}
	return driverBrowser
}

// Session gives the test a session of its own (a fresh browser context) in
// the package's one browser, closed when the test ends, with a context
// bounded by timeout.
func Session(t testing.TB, name string, timeout time.Duration) (*driver.Session, context.Context) {
	t.Helper()
	b := Driver(t)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	s, err := b.Session(ctx, name)
	if err != nil {
		t.Fatalf("session: %v", err)
	}
	t.Cleanup(func() { b.CloseSession(name) })
	return s, ctx
}

// CloseDriver ends the package's browser, if one was started: the
// process and its temporary profile.
func CloseDriver() {
	if driverBrowser != nil {
		driverBrowser.Close()
	}
}

// Main is a TestMain for a package whose tests share its one browser
// (Driver): it runs the tests, ends the browser, and exits with the
// tests' status.
func Main(m *testing.M) {
	code := m.Run()
	CloseDriver()
	os.Exit(code)
}
