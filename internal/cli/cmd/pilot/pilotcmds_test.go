package pilot

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/pilotflags"
)

func TestPilotVars(t *testing.T) {
	env := map[string]string{"SHOP_PW": "hunter2"}
	tests := []struct {
		name        string
		varFlag     string
		vars        []string
		secrets     []string
		typed       map[string]string // what a person types at the prompt, by name
		wantValues  map[string]string
		wantSecrets map[string]string
		wantAsked   []string
		wantErr     string // part of the error; "" for none
	}{
		{name: "var", vars: []string{"q=boots", "empty="}, wantValues: map[string]string{"q": "boots", "empty": ""}},
		{name: "bad var names --var", vars: []string{"boots"}, wantErr: `bad --var "boots"`},
		{name: "bad input names --input", varFlag: "--input", vars: []string{"boots"}, wantErr: `bad --input "boots"`},
		{name: "secret from env", secrets: []string{"pw=env:SHOP_PW"}, wantSecrets: map[string]string{"pw": "hunter2"}},
		{name: "secret from an empty env", secrets: []string{"pw=env:NOPE"}, wantErr: "NOPE is empty or not set"},
		{name: "secret prompt", secrets: []string{"pw=prompt"}, typed: map[string]string{"pw": "s3cret"},
			wantSecrets: map[string]string{"pw": "s3cret"}, wantAsked: []string{"pw"}},
		{name: "bare secret name prompts", secrets: []string{"pw", "pin"}, typed: map[string]string{"pw": "s3cret", "pin": "1234"},
			wantSecrets: map[string]string{"pw": "s3cret", "pin": "1234"}, wantAsked: []string{"pw", "pin"}},
		{name: "secret from a file", secrets: []string{"pw=file:testdata/nosuchfile"}, wantErr: "--secret pw: open testdata/nosuchfile"},
		{name: "secret value on the command line", secrets: []string{"pw=hunter2"}, wantErr: "--secret pw: unknown source"},
		{name: "secret with no name", secrets: []string{"=env:SHOP_PW"}, wantErr: `bad --secret "=env:SHOP_PW"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var asked []string
			o := &pilotflags.PilotOptions{VarFlag: tt.varFlag, VarArgs: tt.vars, Secrets: tt.secrets,
				ReadSecret: func(name string) (string, error) {
					asked = append(asked, name)
					return tt.typed[name], nil
				}}
			v, err := o.Vars(func(k string) string { return env[k] })
			if tt.wantErr != "" {
				var ue *cmdutil.UsageError
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.As(err, &ue) {
					t.Fatalf("err = %v, want a usage error with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.wantValues, v.Values, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("values (-want +got):\n%s", d)
			}
			got := map[string]string{}
			for name, s := range v.Secrets {
				got[name] = s.Reveal()
			}
			if d := cmp.Diff(tt.wantSecrets, got, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("secrets (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.wantAsked, asked); d != "" {
				t.Errorf("asked (-want +got):\n%s", d)
			}
		})
	}
}

// A bare --secret name with no terminal to type it at says how else to
// give it.
func TestPilotVarsBareSecretNeedsATerminal(t *testing.T) {
	common, _, _ := clitest.NewCommon(&clitest.FakeCaller{}, false, false)
	o := &pilotflags.PilotOptions{Common: common, Secrets: []string{"pw"}}
	_, err := o.Vars(func(string) string { return "" })
	var ue *cmdutil.UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "--secret pw needs a terminal") || !strings.Contains(ue.Hint, "--secret pw=env:VAR") {
		t.Errorf("err = %v (%+v)", err, ue)
	}
}

func TestRunSecretAndInputFlags(t *testing.T) {
	opts, err := clitest.ParseCmd(t, NewCmdRun, []string{"sign in", "--secret", "password", "--input", "email=ann@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if opts.VarFlag != "--input" || len(opts.Secrets) != 1 || opts.Secrets[0] != "password" {
		t.Errorf("opts %+v", opts.PilotOptions)
	}
}
