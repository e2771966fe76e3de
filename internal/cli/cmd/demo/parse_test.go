package demo

import (
	"testing"
	"time"

	"github.com/waymark-dev/waymark/internal/cli/clitest"
)

func TestDemoParse(t *testing.T) {
	clitest.CheckParse(t, NewCmdDemoServe, func(o *DemoServeOptions) any { return o.Addr }, []clitest.ParseCase{
		{Name: "default", Want: "127.0.0.1:8080"},
		{Name: "addr", Args: []string{"--addr", "127.0.0.1:0"}, Want: "127.0.0.1:0"},
		{Name: "argument", Args: []string{"x"}, WantUsage: true},
	})
	type demo struct {
		Session string
		Ready   time.Duration
	}
	clitest.CheckParse(t, NewCmdDemo, func(o *DemoOptions) any { return demo{o.Session, o.ReadyTimeout} }, []clitest.ParseCase{
		// s1 is the factory's session: an explicit one is kept.
		{Name: "bare", Want: demo{"s1", 10 * time.Second}},
		{Name: "unknown", Args: []string{"srve"}, WantUsage: true},
	})
}
