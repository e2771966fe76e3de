package cmdutil

import (
	"errors"
	"io"
	"testing"

	"github.com/spf13/cobra"
)

// TestAddSubmitsFlags: --submits is ask unless given; --allow-submit makes
// it allow over whatever --submits says; CheckSubmits refuses any other
// word as a usage error.
func TestAddSubmitsFlags(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string // "" wants a usage error
	}{
		{"default", nil, "ask"},
		{"allow-submit", []string{"--allow-submit"}, "allow"},
		{"submits allow", []string{"--submits", "allow"}, "allow"},
		{"allow-submit wins", []string{"--submits", "ask", "--allow-submit"}, "allow"},
		{"unknown", []string{"--submits", "maybe"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var submits, ran string
			cmd := &cobra.Command{Use: "run", RunE: func(cmd *cobra.Command, _ []string) error {
				if err := CheckSubmits(cmd, submits); err != nil {
					return err
				}
				ran = submits
				return nil
			}}
			cmd.SetOut(io.Discard)
			cmd.SetErr(io.Discard)
			AddSubmitsFlags(cmd, &submits, "submits", "allow")
			cmd.SetArgs(tc.args)
			err := cmd.Execute()
			var ue *UsageError
			switch {
			case tc.want == "" && !errors.As(err, &ue):
				t.Errorf("want a usage error, got %v", err)
			case tc.want != "" && (err != nil || ran != tc.want):
				t.Errorf("submits %q, %v; want %q", ran, err, tc.want)
			}
		})
	}
}
