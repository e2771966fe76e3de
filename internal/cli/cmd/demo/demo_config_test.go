package demo

import (
	"testing"

	"github.com/waymark-dev/waymark/internal/cli/clitest"
)

// The demo closes its session at the end, so it never takes the config
// file's session: only one a person named.
func TestDemoSessionNotFromConfig(t *testing.T) {
	for _, tt := range []struct {
		name       string
		fromConfig bool
		want       string
	}{
		{"named by a person", false, "work"},
		{"from the config file", true, demoSession},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, _, _, _ := clitest.NewFactory(&clitest.FakeCaller{})
			f.Session, f.SessionFromConfig = "work", tt.fromConfig
			got, err := clitest.ParseWith(f, NewCmdDemo, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got.Session != tt.want {
				t.Errorf("session = %q, want %q", got.Session, tt.want)
			}
		})
	}
}
