package pilotflags

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/secret"
)

// PilotOptions are the flags shared by act, observe and extract: the model,
// and the values of %name% placeholders.
type PilotOptions struct {
	cmdutil.Common
	Model   ModelFlags
	VarArgs []string // --var name=value (run: --input)
	// VarFlag names the flag VarArgs came from, for errors: "--var" when
	// empty, "--input" for run.
	VarFlag string
	Secrets []string // --secret name=env:VAR | name=prompt | name (prompt)
	// ReadSecret asks for a secret a --secret says to type; nil reads it
	// from the terminal without echo.
	ReadSecret func(name string) (string, error)
	// Vision is --vision (act, extract, run): auto, always or never;
	// empty takes [model] vision from the configuration, else auto.
	Vision string
	// NoRules gives the pilot no model where the rules model would serve:
	// a command that can work without one says then what it needs.
	NoRules bool
}

func AddPilotFlags(cmd *cobra.Command, o *PilotOptions) {
	cmd.Flags().StringVar(&o.Model.Model, "model", "", `the model: "rules" (no key), anthropic:NAME, openai:NAME, or a model name (env WAYMARK_MODEL)`)
	cmd.Flags().StringVar(&o.Model.BaseURL, "base-url", "", "an OpenAI-compatible server: Ollama, vLLM, llama.cpp, LM Studio (env OPENAI_BASE_URL)")
	cmd.Flags().StringArrayVar(&o.VarArgs, "var", nil, "a value for %name% in the instruction: name=value (repeatable)")
	cmd.Flags().StringArrayVar(&o.Secrets, "secret", nil, "a secret for %name%: name=env:VAR, or name (or name=prompt) to type it without echo (repeatable); never shown to the model")
}

// AddVisionFlag adds --vision, for the commands whose questions may go
// with the page's picture: act, extract and run.
func AddVisionFlag(cmd *cobra.Command, o *PilotOptions) {
	cmd.Flags().StringVar(&o.Vision, "vision", "", `send the model the page's picture: auto (when the outline is thin for what the view shows: a chart, a map, icons), always, or never (default: [model] vision, else auto); only to a model that reads pictures`)
}

// vision is --vision, else the configuration's [model] vision, else
// auto (pilot.Options.Vision).
func (o *PilotOptions) VisionMode() (pilot.Vision, error) {
	if o.Vision != "" {
		v, err := pilot.ParseVision(o.Vision)
		if err != nil {
			return "", cmdutil.UsageErrorf("write --vision auto, --vision always or --vision never", "bad --vision %q", o.Vision)
		}
		return v, nil
	}
	return pilot.ParseVision(o.ModelConfig().Vision) // the loader checked it
}

// Pilot builds the pilot over the daemon for this command.
func (o *PilotOptions) Pilot(ctx context.Context) (*pilot.Pilot, string, pilot.Vars, error) {
	getenv := o.Env()
	vars, err := o.Vars(getenv)
	if err != nil {
		return nil, "", vars, err
	}
	vision, err := o.VisionMode()
	if err != nil {
		return nil, "", vars, err
	}
	m, desc, err := NewModel(o.Model, o.ModelConfig(), getenv, slog.New(slog.DiscardHandler))
	if err != nil {
		return nil, "", vars, err
	}
	caller, err := o.Caller(ctx)
	if err != nil {
		return nil, "", vars, err
	}
	if o.NoRules && strings.HasPrefix(desc, "rules") {
		m = nil
	}
	// The pilot adds vars' secrets to its own set on each call.
	return pilot.New(calls.Remote{Caller: caller, Session: o.Session}, m, &pilot.Options{Vision: vision}), desc, vars, nil
}

// Vars reads --var and --secret.
func (o *PilotOptions) Vars(getenv func(string) string) (pilot.Vars, error) {
	v := pilot.Vars{Values: map[string]string{}, Secrets: map[string]secret.Value{}}
	flag := cmp.Or(o.VarFlag, "--var")
	for _, a := range o.VarArgs {
		name, val, ok := strings.Cut(a, "=")
		if !ok || name == "" {
			return v, cmdutil.UsageErrorf("write "+flag+" name=value", "bad %s %q", flag, a)
		}
		v.Values[name] = val
	}
	read := o.ReadSecret
	if read == nil {
		read = o.Prompt
	}
	src := secret.Sources{Getenv: getenv, ReadFile: os.ReadFile, Prompt: read}
	for _, a := range o.Secrets {
		name, ref, err := SecretFlag(a)
		if err != nil {
			return v, err
		}
		val, err := ref.Resolve(src, name)
		switch {
		case errors.Is(err, secret.ErrUnset) && ref.Kind == secret.RefEnv:
			return v, cmdutil.UsageErrorf("set the variable first, e.g. export "+ref.Name+"=…", "--secret %s: %v", name, err)
		case errors.Is(err, secret.ErrUnset):
			return v, cmdutil.UsageErrorf("", "--secret %s: %v", name, err)
		case err != nil:
			return v, err
		}
		v.Secrets[name] = val
	}
	return v, nil
}

// SecretFlag reads one --secret: name=REF, or a bare name, which is typed
// at the prompt (issue 5: --secret name). REF is [secret.ParseRef]'s.
func SecretFlag(a string) (string, secret.Ref, error) {
	name, src, ok := strings.Cut(a, "=")
	if !ok {
		src = string(secret.RefPrompt)
	}
	if name == "" {
		return "", secret.Ref{}, cmdutil.UsageErrorf("write --secret name, --secret name=env:VAR, --secret name=file:PATH or --secret name=prompt", "bad --secret %q", a)
	}
	ref, err := secret.ParseRef(src)
	if err != nil {
		return "", secret.Ref{}, cmdutil.UsageErrorf("a secret never goes on the command line: use name=env:VAR or name=file:PATH, or name alone to type it", "--secret %s: %v", name, err)
	}
	return name, ref, nil
}

// Prompt reads a secret from the terminal without echo.
func (o *PilotOptions) Prompt(name string) (string, error) {
	f, ok := o.IO.In.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return "", cmdutil.UsageErrorf("use --secret "+name+"=env:VAR when there is no terminal", "--secret %s needs a terminal to type it at", name)
	}
	fmt.Fprintf(o.IO.ErrOut, "%s: ", name)
	b, err := term.ReadPassword(int(f.Fd()))
	fmt.Fprintln(o.IO.ErrOut)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", name, err)
	}
	return string(b), nil
}

// RevealSecrets reads --secret flags (as [PilotOptions.Vars] does) for a
// command that sends the values to the daemon in its request instead of
// giving them to a pilot as %name% variables: form fill, sheet fill, doc
// insert and dialog accept. The daemon registers each value under its name
// in the session's secret registry before it types it, so every reply masks
// it from then on; this is the one place the CLI takes a secret out of its
// [secret.Value] for that. c's IOStreams are where a bare --secret NAME is
// typed (without them that prompt panicked).
func RevealSecrets(c cmdutil.Common, refs []string) (map[string]string, error) {
	po := &PilotOptions{Common: c, Secrets: refs}
	v, err := po.Vars(c.Env())
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(v.Secrets))
	for name, sv := range v.Secrets {
		out[name] = sv.Reveal()
	}
	return out, nil
}

// RevealSecret is [RevealSecrets] for a command that takes one --secret
// (doc insert, dialog accept): the secret's name and its value.
func RevealSecret(c cmdutil.Common, ref string) (name, value string, err error) {
	m, err := RevealSecrets(c, []string{ref})
	if err != nil {
		return "", "", err
	}
	for name, value := range m { // the one secret ref names
		return name, value, nil
	}
	return "", "", nil
}
