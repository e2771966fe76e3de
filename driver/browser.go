package driver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"

	"github.com/waymark-dev/waymark/apps"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/files"
	"github.com/waymark-dev/waymark/internal/browser"
	"github.com/waymark-dev/waymark/internal/netguard"
	"github.com/waymark-dev/waymark/policy"
	"github.com/waymark-dev/waymark/secret"
)

// Options says which browser to use. The zero value starts a headless
// Chromium found in the usual places.
type Options struct {
	// ExecPath is the browser executable; empty means search the usual places.
	ExecPath string
	// Headed shows a window; the default is headless.
	Headed bool
	// CDP attaches to a running browser instead of starting one: a port
	// ("9222"), an http://host:port address, or a ws:// DevTools URL.
	CDP string
	// Args are extra command-line flags for a started browser ("--foo=bar").
	Args []string
	// NetLog is a file a started browser writes Chromium's NetLog to, in
	// the Default capture mode (no cookies, no credentials, no bodies;
	// package netlog reads it); empty means none. An attached browser
	// (CDP) was started by someone else, with its own flags: NetLog is
	// ignored there, and [Browser.NetLog] says so.
	NetLog string
	// Logger receives debug logs; nil discards them.
	Logger *slog.Logger
	// Policy says where pages may go; nil means the default: any host,
	// loopback allowed, private and link-local addresses refused.
	Policy *policy.Policy
	// Resolver resolves host names for the private-network check; nil
	// means the system's. Tests map names to loopback with it.
	Resolver policy.Resolver
	// Downloads says where downloads land and their limits; the zero
	// value is valid (see DownloadOptions, download.go).
	Downloads DownloadOptions
	// UploadRoots are the folders uploads may come from (symlinks are
	// resolved before the check). Empty means the current user's home
	// folder and the system temp folder (os.TempDir).
	UploadRoots []string
	// RemoteCallers says the calls come from other processes, each with a
	// working folder of its own and none of them this process's: the
	// daemon's clients (the CLI, the MCP server, a Go program over
	// calls.Remote) and a batch's rows. A relative file path to upload is
	// then read from the folder the request names (ActRequest.Dir,
	// FormFillRequest.Dir), or refused as bad input with a hint to give it
	// whole; never read from this process's folder, which is wherever the
	// daemon happened to start. False, for a program that runs the driver
	// in its own process, reads it from that process's working folder,
	// as any Go file API does.
	RemoteCallers bool
	// Dial connects the browser's proxied connections to an address the
	// policy allowed (netguard.go); nil means the system's. Tests send
	// them to loopback servers.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// Apps are the user's applications ([[apps]] in the configuration),
	// known before the built-in ones (package apps); nil means only those.
	Apps []apps.App
	// ATS says where the applicant tracking systems' public APIs answer
	// (the configuration's [ats]); empty fields mean the vendors' own.
	ATS ATSOptions
}

// Browser is one Chromium (started or attached) shared by named sessions.
// Close ends the sessions and, for a started browser, kills the process and
// removes its temporary profile.
type Browser struct {
	opts     Options
	desc     string // executable path or CDP address, for status
	ctx      context.Context
	cancel   context.CancelFunc // cancels the browser context and the allocator
	gone     <-chan struct{}    // closed when the browser connection ends
	log      *slog.Logger
	attached bool
	// profile is the started browser's profile folder, removed once it
	// exited (browser.NewProfile); "" for an attached browser.
	profile string
	// proxy carries the sessions' traffic to checked addresses only, or is
	// nil when it cannot (netguard.go).
	proxy *netguard.Proxy
	// graceful closes a browser that writes a NetLog once (Close).
	graceful sync.Once
	// typed is every value a session of the browser typed as a secret,
	// kept while the browser lives: its NetLog holds every session's
	// requests, also a closed one's (netlog.go).
	typed secret.Set

	// mu guards the fields below.
	mu       sync.Mutex
	sessions map[string]*Session
	// fresh are the page targets no session has adopted yet, by their
	// main frame (= target) id, with their opener; refusedNew are the
	// first requests of new tabs refused or held (newtabs.go).
	fresh      map[cdp.FrameID]target.ID
	freshCtx   map[cdp.FrameID]cdp.BrowserContextID // the browser context of each of fresh
	refusedNew map[cdp.FrameID]error
	// frameParent are the out-of-process frames' parent targets.
	frameParent map[target.ID]target.ID
	// workers are the worker targets, whose sends the submit gate judges
	// too (sendgate_workers.go).
	workers map[target.ID]workerTarget
	// pages are the page targets, with their browser context, each
	// counted against its session's MaxTabs; overTabs the ones opened
	// over it, being closed; tabsRefused how many of those each context
	// has not been told of yet (newtabs.go).
	pages       map[target.ID]cdp.BrowserContextID
	overTabs    map[target.ID]bool
	tabsRefused map[cdp.BrowserContextID]int
	// floods counts, by opener, the tabs refused since it was last
	// stopped; at MaxTabs it is stopped (newtabs.go).
	floods map[target.ID]int

	// patternsMu guards what the browser target pauses: fetchPatterns,
	// and watchers, the number of steps whose sends are watched.
	patternsMu    sync.Mutex
	fetchPatterns []*fetch.RequestPattern
	watchers      int
	// watched mirrors watchers for the browser target's guard, which must
	// not wait for a change of patterns under way (newtabs.go).
	watched atomic.Int32
}

// Launch starts (or attaches to) a browser and waits until it answers.
//
// A browser that exits as it starts, before it serves DevTools, is started
// once more with a fresh profile: Chromium itself crashes at start now and
// then on a loaded machine (a segfault, its crash handler's lines in what
// it printed), and a daemon or test that gave up on the first such start
// failed for the browser's fault. One that cannot start at all fails the
// same way twice, and says so.
func Launch(ctx context.Context, opts Options) (*Browser, error) {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.Policy == nil {
		p, err := policy.New(policy.Options{})
		if err != nil {
			return nil, err
		}
		opts.Policy = p
	}
	b, err := launch(ctx, opts, log)
	if exitedAtStart(opts, err) && ctx.Err() == nil {
		log.Warn("the browser exited as it started; starting it once more", "err", err)
		b, err = launch(ctx, opts, log)
	}
	return b, err
}

// exitedAtStart says a start failed because the browser process exited
// before it served DevTools (chromedp says "chrome failed to start", with
// what the browser printed); an attach never does.
func exitedAtStart(opts Options, err error) bool {
	return err != nil && opts.CDP == "" && strings.Contains(err.Error(), "chrome failed to start")
}

// launch is one try of Launch.
func launch(ctx context.Context, opts Options, log *slog.Logger) (*Browser, error) {
	b := &Browser{opts: opts, log: log, sessions: map[string]*Session{}}
	var actx context.Context
	var acancel context.CancelFunc
	if opts.CDP != "" {
		u, err := cdpURL(opts.CDP)
		if err != nil {
			return nil, err
		}
		b.desc, b.attached = u, true
		actx, acancel = remote.NewAllocator(context.Background(), u)
	} else {
		path, err := browser.Find(opts.ExecPath)
		if err != nil {
			return nil, &calls.Error{Kind: calls.ErrUnavailable, Msg: err.Error(),
				Hint: "install Chromium (apt-get install chromium) or pass --executable-path"}
		}
		b.desc = path
		// The browser gets no model key and no secret variable of the
		// process that starts it (secret.Environ).
		extra := []chromedp.ExecAllocatorOption{chromedp.NoInheritEnv, chromedp.Env(secret.Environ(os.Environ())...)}
		for _, a := range opts.Args {
			name, val, ok := strings.Cut(strings.TrimLeft(a, "-"), "=")
			if ok {
				extra = append(extra, chromedp.Flag(name, val))
			} else {
				extra = append(extra, chromedp.Flag(name, true))
			}
		}
		if opts.NetLog != "" {
			// Never IncludeSensitive or Everything: those hold cookies,
			// credentials and bodies.
			extra = append(extra, chromedp.Flag("log-net-log", opts.NetLog), chromedp.Flag("net-log-capture-mode", "Default"))
		}
		// The profile is named after this process, so that the next one
		// removes it if this one is killed before it can (SIGKILL).
		for _, dir := range browser.SweepProfiles() {
			log.Info("removed the profile of a waymark process that died", "dir", dir)
		}
		prof, err := browser.NewProfile()
		if err != nil {
			return nil, err
		}
		b.profile = prof
		extra = append(extra, chromedp.UserDataDir(prof))
		// The proxy starts before the browser so that Chromium's own
		// traffic (its default network context: what no session asked
		// for) goes through it too, judged by the policy and counted
		// by its resolver, rather than straight out with the system's.
		if err := b.startProxy(); err != nil {
			browser.RemoveProfile(prof)
			return nil, fmt.Errorf("start the browser's proxy: %w", err)
		}
		if b.proxy != nil {
			extra = append(extra, chromedp.ProxyServer(b.proxy.URL()))
		}
		actx, acancel = chromedp.NewExecAllocator(context.Background(), browser.Flags(path, !opts.Headed, extra...)...)
	}
	var copts []chromedp.ContextOption
	if cdpTrace != nil {
		copts = append(copts, chromedp.WithDebugf(cdpTrace))
	}
	bctx, bcancel := chromedp.NewContext(actx, copts...)
	b.ctx = bctx
	b.cancel = func() {
		bcancel()
		acancel() // waits for the browser process to exit
		if b.proxy != nil {
			b.proxy.Close() // Close says its error; a failed launch has none worth more
		}
		if b.profile != "" {
			if err := browser.RemoveProfile(b.profile); err != nil {
				log.Warn("remove the browser's profile", "dir", b.profile, "err", err)
			}
		}
	}

	// The first Do starts the browser and binds its life to bctx, so it
	// must not carry the caller's deadline; the caller's ctx only bounds the
	// wait.
	started := make(chan error, 1)
	go func() { started <- chromedp.Do(bctx) }()
	select {
	case err := <-started:
		if err != nil {
			b.cancel()
			verb := "start browser" // an attach that failed is no start ("start browser http://…:9222" sent a reader to the executable)
			if b.attached {
				verb = "attach to the browser at"
			}
			return nil, &calls.Error{Kind: calls.ErrUnavailable, Msg: fmt.Sprintf("%s %s: %v", verb, b.desc, err),
				Hint: "check the browser runs (" + calls.Cmd("doctor") + "), or pass another with --executable-path or --cdp"}
		}
	case <-ctx.Done():
		b.cancel()
		return nil, ctx.Err()
	}
	gone, err := chromedp.Detached(bctx)
	if err != nil {
		gone = bctx.Done()
	}
	if !b.attached && !opts.Headed {
		if gone, err = b.dropFirstTab(ctx); err != nil {
			b.cancel()
			return nil, fmt.Errorf("close the browser's first tab: %w", err)
		}
	}
	b.gone = mergeDone(gone, bctx.Done())
	if err := b.guardNewTabs(ctx); err != nil {
		b.cancel()
		return nil, fmt.Errorf("guard new tabs: %w", err)
	}
	return b, nil
}

// mergeDone closes the result when either channel closes. Its goroutine
// exits then.
func mergeDone(a, b <-chan struct{}) <-chan struct{} {
	out := make(chan struct{})
	go func() {
		select {
		case <-a:
		case <-b:
		}
		close(out)
	}()
	return out
}

// cdpURL turns "9222", "host:9222" or a URL into an address the remote
// allocator accepts.
func cdpURL(s string) (string, error) {
	if _, err := strconv.Atoi(s); err == nil {
		return "http://127.0.0.1:" + s, nil
	}
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return "", calls.Errorf(calls.ErrBadInput, "pass a port (9222), host:port or a ws:// DevTools URL", "bad --cdp address %q", s)
	}
	return s, nil
}

// uploads are the rules every file the browser's sessions upload passes
// (an upload action, a form's file field), from its options.
func (b *Browser) uploads() files.Uploads {
	return files.Uploads{Roots: b.opts.UploadRoots, NoFolder: b.opts.RemoteCallers}
}

// Describe says which browser this is: its executable or CDP address.
func (b *Browser) Describe() string { return b.desc }

// NetLog is the file this browser writes its NetLog to, or "" when it
// writes none (none was asked for, or the browser is attached).
func (b *Browser) NetLog() string {
	if b.attached {
		return ""
	}
	return b.opts.NetLog
}

// Gone is closed when the browser process ended or the connection dropped.
func (b *Browser) Gone() <-chan struct{} { return b.gone }

// Alive reports whether the browser still answers.
func (b *Browser) Alive() bool {
	select {
	case <-b.gone:
		return false
	default:
		return true
	}
}

// Session returns the named session, creating it (a new browser context with
// one blank tab) when it does not exist yet.
func (b *Browser) Session(ctx context.Context, name string) (*Session, error) {
	if !b.Alive() {
		return nil, &calls.Error{Kind: calls.ErrBrowserGone, Msg: "the browser is gone", Hint: "run the command again to start a new one"}
	}
	b.mu.Lock()
	s, ok := b.sessions[name]
	b.mu.Unlock()
	if ok {
		return s, nil
	}
	s, err := newSession(ctx, b, name)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if old, ok := b.sessions[name]; ok { // lost a race: keep the first
		go s.Close()
		return old, nil
	}
	b.sessions[name] = s
	return s, nil
}

// Lookup returns the named session if it exists.
func (b *Browser) Lookup(name string) (*Session, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s, ok := b.sessions[name]
	return s, ok
}

// Sessions returns the open sessions sorted by name.
func (b *Browser) Sessions() []*Session {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]*Session, 0, len(b.sessions))
	for _, s := range b.sessions {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// CloseSession closes the named session; a missing one is not an error.
func (b *Browser) CloseSession(name string) error {
	b.mu.Lock()
	s, ok := b.sessions[name]
	delete(b.sessions, name)
	b.mu.Unlock()
	if !ok {
		return nil
	}
	return s.Close()
}

// Close closes every session and the browser. For an attached browser only
// the sessions' browser contexts are closed; the browser keeps running.
func (b *Browser) Close() error {
	var errs []error
	for _, s := range b.Sessions() {
		errs = append(errs, b.CloseSession(s.name))
	}
	if b.NetLog() != "" {
		// Closed gracefully (Browser.close), Chromium ends its NetLog;
		// killed, as b.cancel does, it leaves the file cut short.
		b.graceful.Do(func() {
			cctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
			defer cancel()
			if err := chromedp.Cancel(cctx); err != nil {
				b.log.Debug("close the browser gracefully", "err", err)
			}
		})
	}
	b.cancel()
	if b.proxy != nil {
		errs = append(errs, b.proxy.Close())
	}
	return errors.Join(errs...)
}

// PID returns the started browser's process id, or 0 for an attached one.
func (b *Browser) PID() int {
	c := chromedp.FromContext(b.ctx)
	if c == nil || c.Browser == nil {
		return 0
	}
	if p := c.Browser.Process(); p != nil {
		return p.Pid
	}
	return 0
}

// cdpTrace, when set (by the driver's tests only: trace_test.go), is given
// every CDP message the browser connection sends and receives.
var cdpTrace func(string, ...any)
