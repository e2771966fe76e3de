package cli

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
)

// ScreenshotOptions are the flags of `waymark screenshot`.
type ScreenshotOptions struct {
	Common
	Request calls.ScreenshotRequest
	Path    string // empty: a new waymark-YYYYMMDD-HHMMSS.png here
	Now     func() time.Time
}

// NewCmdScreenshot builds `waymark screenshot [PATH]`.
func NewCmdScreenshot(f *Factory, runF func(context.Context, *ScreenshotOptions) error) *cobra.Command {
	opts := &ScreenshotOptions{}
	cmd := &cobra.Command{
		Use:   "screenshot [PATH]",
		Short: "Save a PNG of the page or an element",
		Long: `Save a PNG of the viewport (--full: the whole page; --ref: one element) and
print its absolute path. Without PATH, a new file waymark-YYYYMMDD-HHMMSS.png
is made in the current directory.`,
		Example: "  waymark screenshot\n  waymark screenshot page.png --full\n  waymark screenshot --ref @e12 button.png\n  waymark screenshot --mask @e4 --mask 'label=API key'",
		Args:    argsRange(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.common()
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
	img, err := opts.session().Screenshot(ctx, opts.Request)
	if err != nil {
		return err
	}
	var path string
	if opts.Path == "" {
		path, err = writeNewFile(".", "waymark-"+opts.Now().Format("20060102-150405"), ".png", img.Data)
	} else {
		path, err = writeCapture(opts.Path, img.Data)
	}
	if err != nil {
		return err
	}
	return emitFile(&opts.Common, path, len(img.Data))
}

// PDFOptions are the flags of `waymark pdf`.
type PDFOptions struct {
	Common
	Path string
}

// NewCmdPDF builds `waymark pdf PATH`.
func NewCmdPDF(f *Factory, runF func(context.Context, *PDFOptions) error) *cobra.Command {
	opts := &PDFOptions{}
	return &cobra.Command{
		Use:     "pdf PATH",
		Short:   "Save the page as a PDF",
		Example: "  waymark pdf invoice.pdf",
		Args:    exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.common()
			opts.Path = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return pdfRun(cmd.Context(), opts)
		},
	}
}

func pdfRun(ctx context.Context, opts *PDFOptions) error {
	img, err := opts.session().PDF(ctx)
	if err != nil {
		return err
	}
	path, err := writeCapture(opts.Path, img.Data)
	if err != nil {
		return err
	}
	return emitFile(&opts.Common, path, len(img.Data))
}

// emitFile prints the absolute path of a written file: it is the data.
func emitFile(c *Common, path string, n int) error {
	return c.emit(map[string]any{"path": path, "bytes": n}, func() error {
		_, err := fmt.Fprintln(c.IO.Out, path)
		return err
	})
}

// writeCapture writes data to path (replacing a file there) and returns the
// absolute path.
func writeCapture(path string, data []byte) (string, error) {
	if len(data) == 0 {
		return "", errors.New("the daemon sent an empty capture")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(abs, data, 0o644); err != nil {
		return "", calls.Errorf(calls.ErrBadInput, "check that the folder exists and is writable", "write %s: %v", abs, err)
	}
	return abs, nil
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
		file, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
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
