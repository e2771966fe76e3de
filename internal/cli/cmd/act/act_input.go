package act

import (
	"context"
	"os"
	"path/filepath"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

// NewCmdFill builds `waymark fill TARGET TEXT`.
func NewCmdFill(f *cmdutil.Factory, runF func(context.Context, *ActOptions) error) *cobra.Command {
	return newActCmd(f, runF, actSpec{
		kind:    calls.ActFill,
		use:     "fill TARGET TEXT",
		short:   "Replace the text of a field",
		long:    "Clear a text field and put TEXT in it, as one edit (use \"type\" to send keystrokes).",
		example: "  waymark fill @e5 ann@example.com\n  waymark fill label=Email ann@example.com",
		args:    cmdutil.ExactArgs(2),
		parse:   targetText,
	})
}

// NewCmdType builds `waymark type TARGET TEXT`.
func NewCmdType(f *cmdutil.Factory, runF func(context.Context, *ActOptions) error) *cobra.Command {
	return newActCmd(f, runF, actSpec{
		kind:    calls.ActType,
		use:     "type TARGET TEXT",
		short:   "Type text into an element, key by key",
		long:    "Focus an element and type TEXT key by key, after what it already holds (use \"fill\" to replace it).",
		example: "  waymark type @e8 'hello world'",
		args:    cmdutil.ExactArgs(2),
		parse:   targetText,
	})
}

// NewCmdPress builds `waymark press KEY`. The key goes to the focused
// element, or to a target given as --target or as a first argument: agents
// write both `press Enter --target e5` and `press e5 Enter`, and neither is
// ambiguous.
func NewCmdPress(f *cmdutil.Factory, runF func(context.Context, *ActOptions) error) *cobra.Command {
	return newActCmd(f, runF, actSpec{
		kind:  calls.ActPress,
		use:   "press [TARGET] KEY",
		short: "Press a key or a key combination",
		long: `Press a key ("Enter", "Tab", "ArrowDown", "a") or a combination
("Control+A", "Shift+Tab"), on the focused element or on TARGET
(given first, or with --target).`,
		example: "  waymark press Enter\n  waymark press e5 Enter\n  waymark press Control+A --target @e5",
		args:    cmdutil.ArgsRange(1, 2),
		flags: func(cmd *cobra.Command, req *calls.ActRequest) {
			cmd.Flags().StringVar(&req.Target, "target", "", "the element to press the key on (default: the focused one)")
		},
		parse: func(cmd *cobra.Command, args []string, req *calls.ActRequest) error {
			if len(args) == 2 {
				if req.Target != "" {
					return cmdutil.UsageErrorf(cmdutil.HelpHint(cmd), "give the target once: as the first argument or with --target")
				}
				req.Target, req.Key = args[0], args[1]
				return nil
			}
			req.Key = args[0]
			return nil
		},
	})
}

// NewCmdSelect builds `waymark select TARGET VALUE...`.
func NewCmdSelect(f *cmdutil.Factory, runF func(context.Context, *ActOptions) error) *cobra.Command {
	return newActCmd(f, runF, actSpec{
		kind:    calls.ActSelect,
		use:     "select TARGET VALUE...",
		short:   "Choose options of a select element",
		long:    "Choose options of a select element by label or value; several for a multiple select.",
		example: "  waymark select @e6 'United Kingdom'\n  waymark select @e9 red green",
		args:    cmdutil.ArgsRange(2, -1),
		parse: func(_ *cobra.Command, args []string, req *calls.ActRequest) error {
			req.Target, req.Values = args[0], append([]string(nil), args[1:]...)
			return nil
		},
	})
}

// NewCmdUpload builds `waymark upload TARGET FILE...`. The files are
// checked here and sent as absolute paths, because the daemon reads them and
// may run in another directory. A missing file is calls.ErrBadInput (exit
// 1), like any other input the action cannot use: the command line itself
// was well formed.
func NewCmdUpload(f *cmdutil.Factory, runF func(context.Context, *ActOptions) error) *cobra.Command {
	return newActCmd(f, runF, actSpec{
		kind:  calls.ActUpload,
		use:   "upload TARGET FILE...",
		short: "Set the files of a file input",
		long: `Set the files of a file input. A relative path is read from the folder
you run the command in (the browser reads no folder of its own); files
come from your home or the temp folder only.`,
		example:    "  waymark upload @e14 ./cv.pdf",
		args:       cmdutil.ArgsRange(2, -1),
		readsFiles: true,
		parse: func(_ *cobra.Command, args []string, req *calls.ActRequest) error {
			req.Target = args[0]
			files, err := absFiles(args[1:])
			if err != nil {
				return err
			}
			req.Files = files
			return nil
		},
	})
}

// absFiles checks that each path is a regular file and makes it absolute.
func absFiles(paths []string) ([]string, error) {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, calls.Errorf(calls.ErrBadInput, "", "upload %s: %v", p, err)
		}
		fi, err := os.Stat(abs)
		switch {
		case os.IsNotExist(err):
			return nil, calls.Errorf(calls.ErrBadInput, "check the path; relative paths are read from "+cwd(), "upload: no file %s", abs)
		case err != nil:
			return nil, calls.Errorf(calls.ErrBadInput, "", "upload: %v", err)
		case fi.IsDir():
			return nil, calls.Errorf(calls.ErrBadInput, "give the files inside it", "upload: %s is a directory", abs)
		}
		out = append(out, abs)
	}
	return out, nil
}

func cwd() string {
	d, err := os.Getwd()
	if err != nil {
		return "the current directory"
	}
	return d
}

var scrollDirections = map[string]bool{"up": true, "down": true, "left": true, "right": true}

// NewCmdScroll builds `waymark scroll [TARGET] DIRECTION [PX]` and
// `waymark scroll TARGET into-view`.
func NewCmdScroll(f *cmdutil.Factory, runF func(context.Context, *ActOptions) error) *cobra.Command {
	return newActCmd(f, runF, actSpec{
		kind:  calls.ActScroll,
		use:   "scroll [TARGET] up|down|left|right [PX] | scroll TARGET into-view",
		short: "Scroll the page or an element",
		long: `Scroll the page, or the scrollable element TARGET, by PX pixels (default: one
viewport), or scroll TARGET into view.`,
		example: "  waymark scroll down\n  waymark scroll down 300\n  waymark scroll @e30 down\n  waymark scroll @e52 into-view",
		args:    cmdutil.ArgsRange(1, 3),
		parse:   parseScroll,
	})
}

func parseScroll(cmd *cobra.Command, args []string, req *calls.ActRequest) error {
	rest := args
	if args[0] == "into-view" {
		return cmdutil.UsageErrorf("e.g. "+calls.Cmd("scroll @e52 into-view"), "scroll into-view needs a TARGET")
	}
	if !scrollDirections[args[0]] {
		req.Target, rest = args[0], args[1:]
	}
	if len(rest) == 0 {
		return cmdutil.UsageErrorf("usage: "+cmd.UseLine(), "scroll %s needs a direction: up, down, left, right or into-view", req.Target)
	}
	dir := rest[0]
	switch {
	case dir == "into-view":
		if len(rest) > 1 {
			return cmdutil.UsageErrorf(cmdutil.HelpHint(cmd), "scroll into-view takes no pixel count")
		}
	case !scrollDirections[dir]:
		return cmdutil.UsageErrorf(cmdutil.HelpHint(cmd), "unknown scroll direction %q: use up, down, left, right or into-view", dir)
	}
	req.Direction = dir
	if len(rest) == 2 {
		px, err := strconv.Atoi(rest[1])
		if err != nil || px <= 0 {
			return cmdutil.UsageErrorf(cmdutil.HelpHint(cmd), "scroll by a positive number of pixels, got %q", rest[1])
		}
		req.Pixels = px
	} else if len(rest) > 2 {
		return cmdutil.UsageErrorf("usage: "+cmd.UseLine(), "too many arguments for scroll")
	}
	return nil
}
