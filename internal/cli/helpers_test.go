package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/internal/cli/iostreams"
)

// fakeCall is one call the fake Caller saw.
type fakeCall struct {
	Session, Method string
	Params          any
}

// fakeCaller records calls and answers from canned results or errors, or
// from reply when set.
type fakeCaller struct {
	mu      sync.Mutex
	calls   []fakeCall
	results map[string]any   // method → result, sent through JSON like the real wire
	errs    map[string]error // method → error
	reply   func(method string, params any) (any, error)
}

func (c *fakeCaller) Call(ctx context.Context, session, method string, params, result any) error {
	c.mu.Lock()
	c.calls = append(c.calls, fakeCall{Session: session, Method: method, Params: params})
	c.mu.Unlock()
	var res any
	if c.reply == nil && ctx.Err() != nil {
		return ctx.Err() // like a real client; a reply func decides itself
	}
	if c.reply != nil {
		r, err := c.reply(method, params)
		if err != nil {
			return err
		}
		res = r
	} else {
		if err := c.errs[method]; err != nil {
			return err
		}
		res = c.results[method]
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

func (c *fakeCaller) methods() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var m []string
	for _, call := range c.calls {
		m = append(m, call.Method)
	}
	return m
}

var testNow = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

// testFactory returns a Factory whose callers are c, with test streams.
func testFactory(c Caller) (*Factory, *bytes.Buffer, *bytes.Buffer, *bytes.Buffer) {
	ios, in, out, errOut := iostreams.Test()
	get := func(context.Context) (Caller, error) { return c, nil }
	return &Factory{
		IO:            ios,
		Caller:        get,
		RunningCaller: get,
		Session:       "s1",
		Now:           func() time.Time { return testNow },
		Version:       "v9.9.9",
	}, in, out, errOut
}

// testCommon is the Common a run function gets in tests.
func testCommon(c Caller, jsonOut, tty bool) (Common, *bytes.Buffer, *bytes.Buffer) {
	f, _, out, errOut := testFactory(c)
	f.IO.SetStdoutTTY(tty)
	f.IO.SetStderrTTY(tty)
	f.JSON = jsonOut
	return f.common(), out, errOut
}

// parseCmd runs a command built by build with args, catching the Options
// it hands to runF instead of running it.
func parseCmd[T any](t *testing.T, build func(*Factory, func(context.Context, *T) error) *cobra.Command, args []string) (*T, error) {
	t.Helper()
	f, _, _, _ := testFactory(&fakeCaller{})
	return parseWith(f, build, args)
}

func parseWith[T any](f *Factory, build func(*Factory, func(context.Context, *T) error) *cobra.Command, args []string) (*T, error) {
	var got *T
	cmd := build(f, func(_ context.Context, o *T) error {
		got = o
		return nil
	})
	cmd.SetFlagErrorFunc(flagError) // as the root does
	cmd.SetArgs(args)
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	cmd.SilenceErrors = true
	cmd.SilenceUsage = true
	_, err := cmd.ExecuteContextC(context.Background())
	return got, err
}
