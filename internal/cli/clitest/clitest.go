package clitest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/iostreams"
)

// FakeCall is one call the fake Caller saw.
type FakeCall struct {
	Session, Method string
	Params          any
}

// FakeCaller records calls and answers from canned results or errors, or
// from reply when set.
type FakeCaller struct {
	mu      sync.Mutex
	Calls   []FakeCall
	Results map[string]any   // method → result, sent through JSON like the real wire
	Errs    map[string]error // method → error
	Reply   func(method string, params any) (any, error)
}

func (c *FakeCaller) Call(ctx context.Context, session, method string, params, result any) error {
	c.mu.Lock()
	c.Calls = append(c.Calls, FakeCall{Session: session, Method: method, Params: params})
	c.mu.Unlock()
	var res any
	if c.Reply == nil && ctx.Err() != nil {
		return ctx.Err() // like a real client; a reply func decides itself
	}
	if c.Reply != nil {
		r, err := c.Reply(method, params)
		if err != nil {
			return err
		}
		res = r
	} else {
		if err := c.Errs[method]; err != nil {
			return err
		}
		res = c.Results[method]
	}
	b := []byte("{}")
	if res != nil {
		var err error
		if b, err = json.Marshal(res); err != nil {
			return err
		}
	}
	return json.Unmarshal(b, result)
}

func (c *FakeCaller) Methods() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var m []string
	for _, call := range c.Calls {
		m = append(m, call.Method)
	}
	return m
}

var Now = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

// testFactory returns a Factory whose callers are c, with test streams.
func NewFactory(c cmdutil.Caller) (*cmdutil.Factory, *bytes.Buffer, *bytes.Buffer, *bytes.Buffer) {
	ios, in, out, errOut := iostreams.Test()
	get := func(context.Context) (cmdutil.Caller, error) { return c, nil }
	return &cmdutil.Factory{
		IO:            ios,
		Caller:        get,
		RunningCaller: get,
		Session:       "s1",
		Now:           func() time.Time { return Now },
		Version:       "v9.9.9",
	}, in, out, errOut
}

// testCommon is the Common a run function gets in tests.
func NewCommon(c cmdutil.Caller, jsonOut, tty bool) (cmdutil.Common, *bytes.Buffer, *bytes.Buffer) {
	f, _, out, errOut := NewFactory(c)
	f.IO.SetStdoutTTY(tty)
	f.IO.SetStderrTTY(tty)
	f.JSON = jsonOut
	return f.Common(), out, errOut
}

// ParseCmd runs a command built by build with args, catching the Options
// it hands to runF instead of running it.
func ParseCmd[T any](t *testing.T, build func(*cmdutil.Factory, func(context.Context, *T) error) *cobra.Command, args []string) (*T, error) {
	t.Helper()
	f, _, _, _ := NewFactory(&FakeCaller{})
	return ParseWith(f, build, args)
}

func ParseWith[T any](f *cmdutil.Factory, build func(*cmdutil.Factory, func(context.Context, *T) error) *cobra.Command, args []string) (*T, error) {
	var got *T
	cmd := build(f, func(_ context.Context, o *T) error {
		got = o
		return nil
	})
	cmd.SetFlagErrorFunc(cmdutil.FlagError) // as the root does
	cmd.SetArgs(args)
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	cmd.SilenceErrors = true
	cmd.SilenceUsage = true
	_, err := cmd.ExecuteContextC(context.Background())
	return got, err
}
