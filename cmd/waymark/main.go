// Command waymark is a browser for agents: a CLI over a resident daemon.
package main

import (
	"context"
	"os"

	"github.com/waymark-dev/waymark/internal/cli"
)

func main() {
	os.Exit(cli.Main(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
