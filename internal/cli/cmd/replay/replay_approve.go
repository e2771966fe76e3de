package replay

import (
	"bufio"
	"context"
	"fmt"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/iostreams"
)

// askOnTerminal is a replay's Approve when a person sits at the terminal
// (stdin and stderr are one, and no --json): a step that would send, pay,
// delete or confirm, which neither --allow-submit nor the person's
// approval recorded with the step lets through, is put to them as
// calls.Approval.Describe says it; y presses it, anything else stops the
// replay as needs-approval. Interrupted (Ctrl-C),
// it stops.
func askOnTerminal(ios *iostreams.IOStreams) func(ctx context.Context, step string, a calls.Approval) (bool, error) {
	lines := make(chan string)
	var in *bufio.Reader
	return func(ctx context.Context, step string, a calls.Approval) (bool, error) {
		if in == nil {
			in = bufio.NewReader(ios.In)
		}
		fmt.Fprintf(ios.ErrOut, "%s: %s\nAllow it? [y/N] ", step, a.Describe())
		go func() {
			line, _ := in.ReadString('\n')
			select {
			case lines <- line:
			case <-ctx.Done():
			}
		}()
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case line := <-lines:
			answer := strings.ToLower(strings.TrimSpace(line))
			return answer == "y" || answer == "yes", nil
		}
	}
}
