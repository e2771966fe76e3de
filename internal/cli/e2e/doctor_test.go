package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmd/doctor"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/iostreams"
	"github.com/waymark-dev/waymark/internal/cli/root"
	"github.com/waymark-dev/waymark/internal/config"
)

// TestDoctorTakesGlobalFlags: doctor judges the process's configuration,
// global flags included; it read the files and environment only, so
// `waymark --private-network all doctor` judged "loopback".
func TestDoctorTakesGlobalFlags(t *testing.T) {
	var got *doctor.DoctorOptions
	fc := &clitest.FakeCaller{}
	ios, _, _, _ := iostreams.Test()
	f := &cmdutil.Factory{IO: ios, Caller: func(context.Context) (cmdutil.Caller, error) { return fc, nil }}
	g := &cmdutil.GlobalOptions{}
	root := root.NewCmdRoot(f, g)
	f.Config = func() (*config.Config, error) { return config.Load(config.LoadOptions{Flags: g.ConfigFlags()}) }
	for _, c := range root.Commands() {
		if c.Name() == "doctor" {
			root.RemoveCommand(c)
		}
	}
	root.AddCommand(doctor.NewCmdDoctor(f, func(_ context.Context, o *doctor.DoctorOptions) error { got = o; return nil }))
	root.SetArgs([]string{"--private-network", "all", "doctor"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	o := got.WithDefaults()
	cfg, err := o.LoadConfig()
	if err != nil {
		t.Fatal(err)
	}
	ck := doctor.CheckNetwork(o, cfg, true)
	if cfg.Policy.PrivateNetwork != "all" || !strings.Contains(ck.Detail, `"all"`) {
		t.Errorf("doctor judged private_network %q: %+v", cfg.Policy.PrivateNetwork, ck)
	}
}
