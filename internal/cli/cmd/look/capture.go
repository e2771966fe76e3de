package look

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/daemon/daemonpath"
)

// ScreenshotOptions are the flags of `waymark screenshot`.
type ScreenshotOptions struct {
	cmdutil.Common
	Request calls.ScreenshotRequest
	Path    string // empty: a new waymark-YYYYMMDD-HHMMSS.png in the screenshots folder (screenshotDir)
	Now     func() time.Time
}

// NewCmdScreenshot builds `waymark screenshot [PATH]`.
func NewCmdScreenshot(f *cmdutil.Factory, runF func(context.Context, *ScreenshotOptions) error) *cobra.Command {
	opts := &ScreenshotOptions{}
	cmd := &cobra.Command{
		Use:   "screenshot [PATH]",
		Short: "Save a PNG of the page or an element",
		Long: `Save a PNG of the viewport (--full: the whole page; --ref: one element) and
print its absolute path. Without PATH, a new file waymark-YYYYMMDD-HHMMSS.png
is made in waymark's screenshots folder (screenshots in the state folder:
$XDG_STATE_HOME/waymark, else ~/.local/state/waymark), not the current
directory. The file is readable by you alone (0600): a page may show secrets.`,
		Example: "  waymark screenshot\n  waymark screenshot page.png --full\n  waymark screenshot --ref @e12 button.png\n  waymark screenshot --mask @e4 --mask 'label=API key'",
		Args:    cmdutil.ArgsRange(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			opts.Now = f.Now
			if len(args) == 1 {
				opts.Path = args[0]
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return screenshotRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Request.Full, "full", false, "the whole page, not only the viewport")
	cmd.Flags().StringVar(&opts.Request.Target, "ref", "", "only this element (a ref or locator)")
	cmd.Flags().StringArrayVar(&opts.Request.Mask, "mask", nil, "black out this element in the image, e.g. a field holding a secret (a ref or locator; repeatable)")
	cmd.Flags().StringArrayVar(&opts.Request.Highlight, "highlight", nil, "outline this element in red in the image (a ref or locator; repeatable)")
	return cmd
}

func screenshotRun(ctx context.Context, opts *ScreenshotOptions) error {
	img, err := opts.Remote().Screenshot(ctx, opts.Request)
	if err != nil {
		return err
	}
	var path string
	if opts.Path == "" {
		var dir string
		if dir, err = screenshotDir(opts.Env()); err == nil {
			path, err = writeNewFile(dir, "waymark-"+opts.Now().Format("20060102-150405"), ".png", img.Data)
		}
	} else {
		path, err = cmdutil.WriteCapture(opts.Path, img.Data)
	}
	if err != nil {
		return err
	}
	return emitFile(&opts.Common, path, len(img.Data))
}

// PDFOptions are the flags of `waymark pdf`.
type PDFOptions struct {
	cmdutil.Common
	Path string
}

// NewCmdPDF builds `waymark pdf PATH`.
func NewCmdPDF(f *cmdutil.Factory, runF func(context.Context, *PDFOptions) error) *cobra.Command {
	opts := &PDFOptions{}
	return &cobra.Command{
		Use:     "pdf PATH",
		Short:   "Save the page as a PDF",
		Example: "  waymark pdf invoice.pdf",
		Args:    cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			opts.Path = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return pdfRun(cmd.Context(), opts)
		},
	}
}

func pdfRun(ctx context.Context, opts *PDFOptions) error {
	img, err := opts.Remote().PDF(ctx)
	if err != nil {
		return err
	}
	path, err := cmdutil.WriteCapture(opts.Path, img.Data)
	if err != nil {
		return err
	}
	return emitFile(&opts.Common, path, len(img.Data))
}

// emitFile prints the absolute path of a written file: it is the data.
func emitFile(c *cmdutil.Common, path string, n int) error {
	return c.Emit(map[string]any{"path": path, "bytes": n}, func() error {
		_, err := fmt.Fprintln(c.IO.Out, path)
		return err
	})
}

// screenshotDir is where a screenshot with no path goes: the screenshots
// folder in waymark's state folder (daemonpath.StateDir), made private. Not
// the working folder, which an agent's shots would litter (a repository
// it works in, a folder a tool watches), and not the temporary folder,
// where a fixed name is another user's to take first.
func screenshotDir(getenv func(string) string) (string, error) {
	dir := filepath.Join(daemonpath.StateDir(getenv), "screenshots")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", calls.Errorf(calls.ErrBadInput, "give a PATH: "+calls.Cmd("screenshot page.png"), "make the screenshots folder: %v", err)
	}
	return dir, nil
}

// writeNewFile writes data to dir/base+ext, or base-2, base-3, … when that
// exists, so two captures in one second never overwrite each other.
func writeNewFile(dir, base, ext string, data []byte) (string, error) {
	if len(data) == 0 {
		return "", errors.New("the daemon sent an empty capture")
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for i := 1; i < 1000; i++ {
		name := base + ext
		if i > 1 {
			name = fmt.Sprintf("%s-%d%s", base, i, ext)
		}
		path := filepath.Join(dir, name)
		file, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, cmdutil.CaptureMode)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", calls.Errorf(calls.ErrBadInput, "give a PATH in a writable folder", "write %s: %v", path, err)
		}
		_, werr := file.Write(data)
		if cerr := file.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			_ = os.Remove(path)
			return "", fmt.Errorf("write %s: %w", path, werr)
		}
		return path, nil
	}
	return "", fmt.Errorf("no free name for %s%s in %s", base, ext, strings.TrimSuffix(dir, "/"))
}
