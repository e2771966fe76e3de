package cmdutil

import (
	"context"
	"errors"
	"io"
	"testing"

	"github.com/waymark-dev/waymark/internal/cli/iostreams"
)

type ssOptions struct {
	Common
	Op, File string
}

// TestStartStopCommands: start runs with no argument and stop with its
// FILE, each with its own options and the Factory's Common; a runF given
// runs in their place; a wrong count of arguments is a usage error and
// runs nothing.
func TestStartStopCommands(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	f := &Factory{IO: ios, Session: "s7"}
	var ran []ssOptions
	record := func(what string) func(context.Context, *ssOptions) error {
		return func(_ context.Context, o *ssOptions) error {
			c := *o
			c.Op = what + " " + o.Op
			ran = append(ran, c)
			return nil
		}
	}
	build := func(runF func(context.Context, *ssOptions) error) (start, stop func(...string) error) {
		s := StartStop[ssOptions]{
			StartShort: "start it", StopShort: "stop it",
			Start: &ssOptions{Op: "start"}, Stop: &ssOptions{Op: "stop"},
			Common:   func(o *ssOptions) *Common { return &o.Common },
			File:     func(o *ssOptions) *string { return &o.File },
			RunStart: record("run"), RunStop: record("run"),
		}
		startCmd, stopCmd := StartStopCommands(f, runF, s)
		exec := func(cmd interface {
			SetArgs([]string)
			SetOut(io.Writer)
			SetErr(io.Writer)
			ExecuteContext(context.Context) error
		}) func(...string) error {
			return func(args ...string) error {
				cmd.SetArgs(args)
				cmd.SetOut(io.Discard)
				cmd.SetErr(io.Discard)
				return cmd.ExecuteContext(context.Background())
			}
		}
		return exec(startCmd), exec(stopCmd)
	}
	start, stop := build(nil)
	if err := start(); err != nil {
		t.Fatal(err)
	}
	if err := stop("out.json"); err != nil {
		t.Fatal(err)
	}
	if len(ran) != 2 || ran[0].Op != "run start" || ran[0].File != "" || ran[0].Session != "s7" ||
		ran[1].Op != "run stop" || ran[1].File != "out.json" || ran[1].Session != "s7" {
		t.Errorf("ran %+v", ran)
	}
	ran = nil
	start, stop = build(record("runF"))
	var ue *UsageError
	if err := start("extra"); !errors.As(err, &ue) {
		t.Errorf("start extra: %v; want a usage error", err)
	}
	if err := stop(); !errors.As(err, &ue) {
		t.Errorf("stop with no FILE: %v; want a usage error", err)
	}
	if err := stop("t.html"); err != nil || len(ran) != 1 || ran[0].Op != "runF stop" || ran[0].File != "t.html" {
		t.Errorf("runF: %v, ran %+v", err, ran)
	}
}
