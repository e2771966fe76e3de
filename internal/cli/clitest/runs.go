package clitest

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

// RunCase runs one run function against canned results and checks what it
// printed.
type RunCase struct {
	Name       string
	Results    map[string]any
	Errs       map[string]error
	JSON, TTY  bool
	Run        func(ctx context.Context, c cmdutil.Common) error
	WantStdout string
	WantStderr string
	WantCalls  []string // methods, in order; nil skips the check
}

func CheckRuns(t *testing.T, cases []RunCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			fc := &FakeCaller{Results: tt.Results, Errs: tt.Errs}
			common, out, errOut := NewCommon(fc, tt.JSON, tt.TTY)
			if err := tt.Run(context.Background(), common); err != nil {
				t.Fatalf("err = %v", err)
			}
			if diff := cmp.Diff(tt.WantStdout, out.String()); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.WantStderr, errOut.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
			if tt.WantCalls != nil {
				if diff := cmp.Diff(tt.WantCalls, fc.Methods()); diff != "" {
					t.Errorf("calls (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// ParseCase is one command line and what runF should get from it: want is
// compared with pick(opts).
type ParseCase struct {
	Name      string
	Args      []string
	Want      any
	WantUsage bool
}

func CheckParse[T any](t *testing.T, build func(*cmdutil.Factory, func(context.Context, *T) error) *cobra.Command, pick func(*T) any, cases []ParseCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			got, err := ParseCmd(t, build, tt.Args)
			if tt.WantUsage {
				var ue *cmdutil.UsageError
				if !errors.As(err, &ue) {
					t.Fatalf("err = %v, want a UsageError", err)
				}
				if got != nil {
					t.Errorf("runF was called: %+v", pick(got))
				}
				return
			}
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if got == nil {
				t.Fatal("runF was not called")
			}
			if diff := cmp.Diff(tt.Want, pick(got)); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
		})
	}
}

var PNG = []byte("\x89PNG\r\n\x1a\nfake")
