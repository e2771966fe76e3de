// Command fakedaemon is a waymark daemon with a fake handler, for the
// client's auto-start tests: "fakedaemon daemon [--version V] [--fail]".
// It listens on $WAYMARK_SOCKET, as the real CLI does.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/daemon"
)

type handler struct{}

func (handler) Handle(ctx context.Context, session, method string, params json.RawMessage) (any, error) {
	switch method {
	case "pid":
		return map[string]int{"pid": os.Getpid()}, nil
	case "echo":
		return params, nil
	case "env":
		return os.Environ(), nil
	case "block":
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return nil, calls.Errorf(calls.ErrBadInput, "", "unknown method %q", method)
}

func main() {
	if len(os.Args) < 2 || os.Args[1] != "daemon" {
		fmt.Fprintln(os.Stderr, "usage: fakedaemon daemon [--version V] [--fail]")
		os.Exit(2)
	}
	fs := flag.NewFlagSet("daemon", flag.ExitOnError)
	version := fs.String("version", "v1", "version in the hello")
	fail := fs.Bool("fail", false, "fail at start")
	fs.Parse(os.Args[2:])
	if *fail {
		fmt.Fprintln(os.Stderr, "fake failure at start")
		os.Exit(1)
	}
	err := daemon.Main(context.Background(), daemon.Options{
		Socket:  os.Getenv("WAYMARK_SOCKET"),
		Handler: handler{},
		Version: *version,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakedaemon:", err)
		os.Exit(1)
	}
}
