package wiring

import (
	"testing"

	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

// The [ats] section reaches the driver: where the ATS APIs answer.
func TestDriverOptionsATS(t *testing.T) {
	cfg, err := clitest.LoadFile(t, "[ats]\ngreenhouse_api = \"http://127.0.0.1:9\"\nashby_api = \"http://127.0.0.1:10\"\n", nil)(nil)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := cmdutil.DriverOptions(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if opts.ATS.GreenhouseAPI != "http://127.0.0.1:9" || opts.ATS.AshbyAPI != "http://127.0.0.1:10" {
		t.Errorf("ats %+v", opts.ATS)
	}
}

// Every browser the configuration starts serves other processes (the
// daemon's clients, `waymark worker`'s batch rows, a pool's endpoints):
// it reads no relative upload path from its own folder.
func TestDriverOptionsServeOtherProcesses(t *testing.T) {
	cfg, err := clitest.LoadFile(t, "", nil)(nil)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := cmdutil.DriverOptions(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !opts.RemoteCallers {
		t.Error("RemoteCallers is off: the daemon would read a relative upload path from the folder it started in")
	}
}
