package cmdutil

import (
	"github.com/spf13/cobra"
)

// RemoteSafe marks a command the daemon may run for the thin front
// (cmd/waymark-front, which sends it rpc.MethodCLIRun): everything it reads
// of the calling process comes through [Deps] (the environment, the config
// files of the caller's folder) and the TTY flags of its [iostreams.IOStreams].
// Such a command reads no stdin, resolves no path against the working
// folder (upload FILE, screenshot FILE, state save, eval - are not safe),
// prompts for nothing, and does nothing but its calls and its printing (no
// model, no server, no daemon of its own). A command not marked runs in the
// calling process, as waymark-full.
const RemoteSafe = "waymark/remote-safe"

// RunsInDaemon marks cmd [remoteSafe] and returns it.
func RunsInDaemon(cmd *cobra.Command) *cobra.Command {
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[RemoteSafe] = "yes"
	return cmd
}

// ConfigOptional marks a command (and its subcommands) that runs with a
// config file it cannot read: config show and doctor are how to find out
// what is wrong with it, and the daemon must stop whatever the file says.
const ConfigOptional = "waymark/config-optional"
