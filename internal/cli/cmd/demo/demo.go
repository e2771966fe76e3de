package demo

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/outline"
)

// DemoServeOptions are the flags of `waymark demo serve`.
type DemoServeOptions struct {
	cmdutil.Common
	ServeDemo func(ctx context.Context, addr string, ready func(url string)) error
	Addr      string
}

// DemoOptions are the flags of `waymark demo`.
type DemoOptions struct {
	cmdutil.Common
	ServeDemo func(ctx context.Context, addr string, ready func(url string)) error
	// ReadyTimeout bounds the wait for the demo site to listen.
	ReadyTimeout time.Duration
}

// demoSession is the session the tour runs in unless --session names one,
// so that it never touches (or closes) the user's default session.
const demoSession = "demo"

// NewCmdDemo builds `waymark demo` (a short tour against a built-in shop)
// and `waymark demo serve`.
func NewCmdDemo(f *cmdutil.Factory, runF func(context.Context, *DemoOptions) error) *cobra.Command {
	opts := &DemoOptions{}
	cmd := &cobra.Command{
		Use:   "demo [serve]",
		Short: "Take a short tour on a built-in demo shop",
		Long: `Start a small demo shop on a loopback port and drive it: open the product
list, look at it, open a product, fill the quantity, add it to the cart, wait
for the cart to show it, read the title and take a screenshot. Each step is
printed as it goes. "waymark demo serve" only serves the shop.`,
		Args: cmdutil.NoArgsOrSubcommand,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			// The tour closes its session at the end: it takes one of its
			// own unless a person named one for it.
			if opts.Session == "default" || f.SessionFromConfig {
				opts.Session = demoSession
			}
			opts.ServeDemo = f.ServeDemo
			opts.ReadyTimeout = 10 * time.Second
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return demoRun(cmd.Context(), opts)
		},
	}
	cmd.AddCommand(NewCmdDemoServe(f, nil))
	return cmd
}

// NewCmdDemoServe builds `waymark demo serve [--addr HOST:PORT]`.
func NewCmdDemoServe(f *cmdutil.Factory, runF func(context.Context, *DemoServeOptions) error) *cobra.Command {
	opts := &DemoServeOptions{}
	cmd := &cobra.Command{
		Use:   "serve [--addr HOST:PORT]",
		Short: "Serve the demo shop until interrupted",
		Args:  cmdutil.ExactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			opts.ServeDemo = f.ServeDemo
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return demoServeRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Addr, "addr", "127.0.0.1:8080", "the address to listen on")
	return cmd
}

func demoServeRun(ctx context.Context, opts *DemoServeOptions) error {
	err := opts.ServeDemo(ctx, opts.Addr, func(u string) {
		// The URL is the data; with --json it is the whole output, printed
		// when the site is ready since serving only ends with a signal.
		if opts.JSON {
			_ = cmdutil.WriteEnvelope(opts.IO.Out, cmdutil.Envelope{OK: true, Data: map[string]string{"url": u}})
			return
		}
		fmt.Fprintln(opts.IO.Out, u)
		opts.Note("serving the demo shop at %s; Ctrl-C to stop", u)
	})
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return nil // interrupted: the way serving ends
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "listen" {
		// The address the user gave: taken, or not an address.
		return cmdutil.UsageErrorf("give a free HOST:PORT with --addr, e.g. 127.0.0.1:8081", "%v", err)
	}
	return err
}

// demoTour holds the tour's state; each method is one step.
type demoTour struct {
	opts  *DemoOptions
	steps []string // what was done, for --json
}

// step runs fn and prints "✓ what it said" or "✗ name: error".
func (t *demoTour) step(name string, fn func() (string, error)) error {
	msg, err := fn()
	if err != nil {
		t.opts.Note("✗ %s: %v", name, err)
		return fmt.Errorf("demo: %s: %w", name, err)
	}
	t.steps = append(t.steps, msg)
	t.opts.Note("✓ %s", msg)
	return nil
}

func demoRun(ctx context.Context, opts *DemoOptions) (err error) {
	site, stop, err := startDemoSite(ctx, opts)
	if err != nil {
		return err
	}
	defer stop()
	t := &demoTour{opts: opts}
	t.opts.Note("✓ demo shop at %s", site)

	// The session is closed however the tour ends, with a context of its
	// own so that Ctrl-C still cleans up.
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if cerr := opts.Daemon().CloseSession(cctx); cerr == nil {
			t.opts.Note("✓ closed session %q", opts.Session)
		} else if err == nil {
			err = fmt.Errorf("demo: close the session: %w", cerr)
		}
	}()

	var shot string
	var title string
	steps := []struct {
		name string
		fn   func() (string, error)
	}{
		{"open the products", func() (string, error) { return t.open(ctx, strings.TrimRight(site, "/")+"/products") }},
		{"open a product", func() (string, error) { return t.openProduct(ctx) }},
		{"fill the quantity", func() (string, error) { return t.fillQuantity(ctx) }},
		{"add to cart", func() (string, error) {
			return t.act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: `role=button[name="Add to cart"]`})
		}},
		{"wait for the cart", func() (string, error) {
			req := calls.WaitRequest{Text: "Cart (1)", TimeoutMS: 10000}
			if _, err := opts.Remote().Wait(ctx, req); err != nil {
				return "", err
			}
			return `the page shows "Cart (1)"`, nil
		}},
		{"read the title", func() (string, error) {
			res, err := opts.Remote().Get(ctx, calls.GetRequest{What: "title"})
			if err != nil {
				return "", err
			}
			title = res.Value
			return fmt.Sprintf("title is %q", res.Value), nil
		}},
		{"take a screenshot", func() (string, error) {
			var err error
			shot, err = t.screenshot(ctx)
			return "screenshot saved to " + shot, err
		}},
	}
	for _, s := range steps {
		if err := t.step(s.name, s.fn); err != nil {
			return err
		}
	}
	return opts.Emit(map[string]any{"site": site, "steps": t.steps, "title": title, "screenshot": shot}, func() error {
		_, err := fmt.Fprintln(opts.IO.Out, shot)
		return err
	})
}

// startDemoSite serves the demo shop on a free loopback port in the
// background and returns its URL and a stop function that waits for it.
func startDemoSite(ctx context.Context, opts *DemoOptions) (string, func(), error) {
	sctx, cancel := context.WithCancel(ctx)
	ready := make(chan string, 1)
	done := make(chan struct{})
	var serveErr error
	go func() { // exits when sctx is canceled (stop) or serving fails
		defer close(done)
		serveErr = opts.ServeDemo(sctx, "127.0.0.1:0", func(u string) {
			select {
			case ready <- u:
			default:
			}
		})
	}()
	stop := func() { cancel(); <-done }
	timer := time.NewTimer(opts.ReadyTimeout)
	defer timer.Stop()
	select {
	case u := <-ready:
		return u, stop, nil
	case <-done:
		cancel()
		if serveErr == nil {
			serveErr = errors.New("it stopped before it was ready")
		}
		return "", nil, fmt.Errorf("demo: serve the demo shop: %w", serveErr)
	case <-timer.C:
		stop()
		return "", nil, fmt.Errorf("demo: the demo shop was not ready after %s", opts.ReadyTimeout)
	case <-ctx.Done():
		stop()
		return "", nil, ctx.Err()
	}
}

func (t *demoTour) open(ctx context.Context, u string) (string, error) {
	page, err := t.opts.Remote().Open(ctx, calls.OpenRequest{URL: u})
	if err != nil {
		return "", err
	}
	return "opened " + cmdutil.DescribePage(*page), nil
}

func (t *demoTour) act(ctx context.Context, req calls.ActRequest) (string, error) {
	out, err := t.opts.Remote().Act(ctx, req)
	if err != nil {
		return "", err
	}
	return cmdutil.DescribeOutcome(req, *out), nil
}

// snapshot takes an interactive look and prints it: the tour shows what an
// agent sees.
func (t *demoTour) snapshot(ctx context.Context) (calls.Snapshot, error) {
	snap, err := t.opts.Remote().Snapshot(ctx, calls.SnapshotRequest{Interactive: true})
	if err != nil {
		return calls.Snapshot{}, err
	}
	if !t.opts.JSON {
		fmt.Fprint(t.opts.IO.Out, cmdutil.WithNewline(snap.Text))
	}
	return *snap, nil
}

// openProduct looks at the product list and clicks the first link that
// leads to a product page (/products/…), read from its href: the menu's
// links come first on most shops.
func (t *demoTour) openProduct(ctx context.Context) (string, error) {
	snap, err := t.snapshot(ctx)
	if err != nil {
		return "", err
	}
	t.opts.Note("✓ looked at the page: %d refs", snap.Refs)
	for _, it := range outline.Parse(snap.Text) {
		if it.Role != "link" || it.Ref == "" || it.Name == "" {
			continue
		}
		href, err := t.opts.Remote().Get(ctx, calls.GetRequest{What: "attr", Target: it.Ref, Name: "href"})
		if err != nil {
			return "", err
		}
		u, err := url.Parse(href.Value)
		if err != nil || !strings.Contains(u.Path, "/products/") {
			continue
		}
		msg, err := t.act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "@" + it.Ref})
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s (link %q)", msg, it.Name), nil
	}
	return "", errors.New("no link to a product (/products/…) in the outline")
}

// fillQuantity finds the quantity field in a fresh look (by its name), or
// falls back to its label.
func (t *demoTour) fillQuantity(ctx context.Context) (string, error) {
	snap, err := t.snapshot(ctx)
	if err != nil {
		return "", err
	}
	target := "label=Quantity"
	for _, it := range outline.Parse(snap.Text) {
		if it.Ref != "" && (it.Role == "spinbutton" || it.Role == "textbox") && strings.Contains(strings.ToLower(it.Name), "quantity") {
			target = "@" + it.Ref
			break
		}
	}
	// One, so the cart then reads "Cart (1)" whether it counts items or
	// their quantities.
	return t.act(ctx, calls.ActRequest{Kind: calls.ActFill, Target: target, Value: "1"})
}

func (t *demoTour) screenshot(ctx context.Context) (string, error) {
	img, err := t.opts.Remote().Screenshot(ctx, calls.ScreenshotRequest{})
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "waymark-demo-")
	if err != nil {
		return "", err
	}
	return cmdutil.WriteCapture(filepath.Join(dir, "cart.png"), img.Data)
}
