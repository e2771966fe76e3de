package wiring

import (
	"slices"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/internal/cli/pilotflags"
	"github.com/waymark-dev/waymark/internal/config"
	"github.com/waymark-dev/waymark/internal/rpc"
)

// The front sends what the CLI's config loader reads (but the model's
// keys), where the daemon is, what decides colour, and the variables a
// --secret names, by the one reference grammar (secretFlag,
// secret.ParseRef); nothing else.
func TestFrontEnvKeepsWhatTheCommandReads(t *testing.T) {
	env := []string{"OPENAI_API_KEY=sk-live", "ANTHROPIC_API_KEY=sk-ant", "GITHUB_TOKEN=ghp_x", "AWS_SECRET_ACCESS_KEY=aws",
		"PIN=4821", "OTHER=1", "WAYMARK_SOCKET=/s", "NO_COLOR=1", "TERM=dumb", "PATH=/bin", "WAYMARK_PIN=9"}
	for _, n := range config.EnvNames() {
		env = append(env, n+"=v")
	}
	args := []string{"--session", "s", "form", "fill", "--secret", "pin=env:PIN", "--secret=pw=file:/x", "--secret", "otp", "--", "--secret", "x=env:OTHER"}
	got := rpc.FrontEnv(env, args)
	has := func(name string) bool {
		return slices.ContainsFunc(got, func(kv string) bool { return strings.HasPrefix(kv, name+"=") })
	}
	for _, n := range append(config.EnvNames(), "WAYMARK_SOCKET", "NO_COLOR", "TERM", "PIN") {
		model := strings.HasSuffix(n, "_API_KEY") || n == "OPENAI_BASE_URL"
		if has(n) == model {
			t.Errorf("%s sent: %v (want %v)", n, has(n), !model)
		}
	}
	for _, n := range []string{"GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "OTHER", "PATH", "WAYMARK_PIN"} {
		if has(n) {
			t.Errorf("%s is sent", n)
		}
	}
	// Every env: form secretFlag reads, FrontEnv finds.
	for _, a := range []string{"pin=env:PIN", "a=env:_X1", "b=env:lower"} {
		_, ref, err := pilotflags.SecretFlag(a)
		if err != nil {
			t.Fatal(err)
		}
		kept := rpc.FrontEnv([]string{ref.Name + "=v"}, []string{"--secret", a})
		if len(kept) != 1 {
			t.Errorf("--secret %s: FrontEnv kept %v", a, kept)
		}
	}
}

// The daemon reads, for a command run for the front, only what FrontEnv
// keeps of what the front sent: never its own environment, never a
// variable a front sent that no front should.
func TestFrontRunnerReadsOnlyTheFrontEnv(t *testing.T) {
	t.Setenv("WAYMARK_DAEMON_ONLY_MARKER", "daemon-side")
	got := envLookup(rpc.FrontEnv([]string{"OPENAI_API_KEY=sk-live", "WAYMARK_SESSION=a"}, nil))
	if got("OPENAI_API_KEY") != "" || got("WAYMARK_DAEMON_ONLY_MARKER") != "" || got("WAYMARK_SESSION") != "a" {
		t.Errorf("lookup: key %q, marker %q, session %q", got("OPENAI_API_KEY"), got("WAYMARK_DAEMON_ONLY_MARKER"), got("WAYMARK_SESSION"))
	}
}
