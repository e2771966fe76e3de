package files

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/waymark-dev/waymark/calls"
)

const (
	defaultDownloadMax     = 100 << 20
	defaultDownloadTimeout = 2 * time.Minute
	downloadTick           = 250 * time.Millisecond // how often the Timeout is checked
	// sweepFor is how long the watcher keeps removing what a stopped
	// download leaves. The browser deletes a canceled download's file on
	// its own file thread after it reports the cancel, and one that
	// completes as the cancel lands is renamed after it: the file can
	// appear, or stay, after the stop (seen in CI under load).
	sweepFor = 10 * time.Second
	// totalFactor sets what a session's downloads may hold in all: this
	// many times the largest one. Each download was within its limit,
	// and a page that downloads in a loop filled the disk every session
	// and the daemon write to.
	totalFactor = 10
	// maxListed is the most downloads a session records; later ones are
	// canceled unrecorded, so a page's loop does not grow the list
	// without end either.
	maxListed = 500
)

// download is one download the session's browser context began.
type download struct {
	arrival  int    // the watcher's arrival number of its downloadWillBegin
	guid     string // the browser's id; also the file's name while it runs
	name     string // the safe name it gets in the folder
	began    time.Time
	received int64
	state    string // "" while it runs, then a calls.Download* state
	reason   string
	path     string // where it is, once completed
	// reported is set once an outcome, a look or a list has told its end;
	// a look tells the ones that are not (Downloads.Notices).
	reported bool
	// sweepUntil, set when a download is stopped, is until when each tick
	// removes what it left in the folder.
	sweepUntil time.Time
}

// downloads watches the downloads of one session's browser context. Its
// listener runs in chromedp's read loop and only queues the events; run,
// its one goroutine, does the work and owns the CDP calls.
type Downloads struct {
	bcid      cdp.BrowserContextID
	ownsFrame func(ctx context.Context, id cdp.FrameID) bool
	dir       string
	temp      bool // dir is ours: remove it at close
	max       int64
	exts      []string
	limit     time.Duration
	log       *slog.Logger
	cancel    context.CancelFunc
	done      chan struct{} // closed when run returns

	// qmu guards the queue. The listener appends to it from chromedp's read
	// loop, so the queue is unbounded: a full channel would either block
	// that loop or drop a final event, and neither is allowed.
	qmu     sync.Mutex
	queue   []any
	arrived int // downloadWillBegin events seen so far
	// mine are the live targets of the session's browser context, as the
	// browser announced them. A tab opened only to download a file closes
	// as soon as the download begins, before run could ask the browser
	// whose it was; the listener answers from this instead.
	mine map[target.ID]bool
	wake chan struct{} // capacity 1: the queue has something

	// mu guards the fields below (and each download's); run writes them,
	// collect, notices and all read them and mark downloads reported.
	mu        sync.Mutex
	processed int // arrival number of the last downloadWillBegin run handled
	list      []*download
	byGUID    map[string]*download
	changed   chan struct{} // closed and replaced on every change collect waits for
}

// queued is a downloadWillBegin with its arrival number, and whether its
// frame was one of the session's targets when it arrived.
type queued struct {
	arrival int
	ev      *browser.EventDownloadWillBegin
	owned   bool
}

// Config is what a session's watcher is made from: the session's
// browser context, how to tell its frames, and the limits (driver's
// DownloadOptions, defaults not yet applied).
type Config struct {
	// Context is the session's browser context.
	Context cdp.BrowserContextID
	// OwnsFrame reports whether a frame is one of the session's (the
	// core knows its tabs).
	OwnsFrame func(ctx context.Context, id cdp.FrameID) bool
	Dir       string
	MaxBytes  int64
	// Extensions allowed; DefaultExtensions when none is left.
	Extensions, DefaultExtensions []string
	Timeout                       time.Duration
	Log                           *slog.Logger
	// BrowserErr turns a failure of the connection into the core's
	// error for it (the browser is gone).
	BrowserErr func(error) error
}

// Start makes the session's browser context download into its folder
// with events on, and starts the watcher; browserCtx is the browser's
// chromedp context, which the watcher lives as long as at most. Close it
// with Close. A failure to reach the browser is returned as chromedp's
// error through o.BrowserErr.
func Start(ctx, browserCtx context.Context, o Config) (*Downloads, error) {
	d := &Downloads{bcid: o.Context, ownsFrame: o.OwnsFrame, dir: o.Dir, max: o.MaxBytes, limit: o.Timeout, log: o.Log,
		byGUID: map[string]*download{}, changed: make(chan struct{}), mine: map[target.ID]bool{},
		wake: make(chan struct{}, 1), done: make(chan struct{})}
	if d.max <= 0 {
		d.max = defaultDownloadMax
	}
	if d.limit <= 0 {
		d.limit = defaultDownloadTimeout
	}
	for _, e := range o.Extensions {
		if e = strings.ToLower(strings.TrimSpace(e)); e != "" {
			if !strings.HasPrefix(e, ".") {
				e = "." + e
			}
			d.exts = append(d.exts, e)
		}
	}
	if len(d.exts) == 0 {
		d.exts = o.DefaultExtensions
	}
	var err error
	if d.dir == "" {
		d.dir, err = os.MkdirTemp("", "waymark-downloads-")
		d.temp = true
	} else if d.dir, err = filepath.Abs(d.dir); err == nil {
		err = os.MkdirAll(d.dir, 0o700)
	}
	if err != nil {
		return nil, fmt.Errorf("downloads folder: %w", err)
	}

	// The watcher lives as long as the browser or until close.
	wctx, cancel := context.WithCancel(browserCtx)
	d.cancel = cancel
	// Listen before downloads are allowed, so no event is missed.
	if err := chromedp.ListenBrowser(wctx, d.listen); err != nil {
		cancel()
		d.removeTemp()
		return nil, fmt.Errorf("listen for downloads: %w", o.BrowserErr(err))
	}
	go d.run(wctx)
	// CallBrowser needs the browser's context; the caller's ctx bounds it.
	cctx, ccancel := context.WithCancel(wctx)
	defer ccancel()
	defer context.AfterFunc(ctx, ccancel)()
	// Target events tell the listener which targets are the session's. A
	// browser we launched discovers them already; one attached with --cdp
	// may not. Turning it on again reports the targets there are.
	if _, err := chromedp.CallBrowser(cctx, target.SetDiscoverTargets, target.SetDiscoverTargetsParams{Discover: true}); err != nil {
		d.Close()
		return nil, fmt.Errorf("discover targets: %w", o.BrowserErr(err))
	}
	_, err = chromedp.CallBrowser(cctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior:         browser.SetDownloadBehaviorBehaviorAllowAndName,
		BrowserContextID: d.bcid,
		DownloadPath:     d.dir,
		EventsEnabled:    new(true),
	})
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("set download behavior: %w", o.BrowserErr(err))
	}
	return d, nil
}

// listen runs in chromedp's read loop: it queues download events and
// returns at once (STYLE rule 10). Every session's listener sees every
// browser context's downloads; run sorts out which are this session's.
func (d *Downloads) listen(ev any) {
	var item any
	d.qmu.Lock()
	switch ev := ev.(type) {
	case *target.EventTargetCreated:
		d.track(ev.TargetInfo)
		d.qmu.Unlock()
		return
	case *target.EventTargetInfoChanged:
		d.track(ev.TargetInfo)
		d.qmu.Unlock()
		return
	case *target.EventTargetDestroyed:
		delete(d.mine, ev.TargetID)
		d.qmu.Unlock()
		return
	case *browser.EventDownloadWillBegin:
		d.arrived++
		item = queued{arrival: d.arrived, ev: ev, owned: d.mine[target.ID(ev.FrameID)]}
	case *browser.EventDownloadProgress:
		item = ev
	default:
		d.qmu.Unlock()
		return
	}
	d.queue = append(d.queue, item)
	d.qmu.Unlock()
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// track notes a target of the session's browser context; d.qmu is held.
func (d *Downloads) track(info *target.Info) {
	if info != nil && info.BrowserContextID == d.bcid {
		d.mine[info.TargetID] = true
	}
}

// run handles the queued events in order and cancels downloads past the
// Timeout. It returns when ctx ends (close, or the browser going away).
func (d *Downloads) run(ctx context.Context) {
	defer close(d.done)
	tick := time.NewTicker(downloadTick)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-d.wake:
			d.qmu.Lock()
			items := d.queue
			d.queue = nil
			d.qmu.Unlock()
			for _, it := range items {
				switch it := it.(type) {
				case queued:
					d.begin(ctx, it)
				case *browser.EventDownloadProgress:
					d.progress(ctx, it)
				}
			}
		case <-tick.C:
			d.expire(ctx)
			d.sweep(time.Now())
		}
	}
}

// begin takes a download this session's pages started, and refuses it
// at once when its name's ending is not allowed.
func (d *Downloads) begin(ctx context.Context, q queued) {
	defer func() {
		d.mu.Lock()
		d.processed = q.arrival
		d.notify()
		d.mu.Unlock()
	}()
	if !q.owned && !d.ownsFrame(ctx, q.ev.FrameID) {
		return
	}
	dl := &download{arrival: q.arrival, guid: q.ev.GUID, name: safeName(q.ev.SuggestedFilename), began: time.Now()}
	d.mu.Lock()
	listed := len(d.list) < maxListed
	if listed {
		d.list = append(d.list, dl)
	}
	d.byGUID[dl.guid] = dl
	full := d.heldLocked() >= d.total()
	d.mu.Unlock()
	switch {
	case !listed:
		d.stop(ctx, dl, calls.DownloadRefused, "")
		d.log.Debug("download: refused unrecorded, past the most a session records", "max", maxListed)
	case !d.allowed(dl.name):
		d.stop(ctx, dl, calls.DownloadRefused,
			fmt.Sprintf("files ending %s are not allowed (allowed: %s)", ending(dl.name), strings.Join(d.exts, " ")))
	case full:
		d.stop(ctx, dl, calls.DownloadRefused, d.fullReason())
	}
}

// total is the most bytes the session's downloads may hold in all.
func (d *Downloads) total() int64 { return totalFactor * d.max }

// heldLocked is what the session's downloads hold: the kept files and
// the running ones so far. d.mu is held.
func (d *Downloads) heldLocked() int64 {
	var n int64
	for _, dl := range d.list {
		if dl.state == "" || dl.state == calls.DownloadCompleted {
			n += dl.received
		}
	}
	return n
}

// fullReason says why a download past the session's total was stopped.
func (d *Downloads) fullReason() string {
	return fmt.Sprintf("the session's downloads hold %d bytes, the most they may in all (%d× the largest one); "+
		"close the session to free its folder", d.total(), totalFactor)
}

// progress follows a download: over the size limit it is canceled; once
// completed it gets its safe name in the folder.
func (d *Downloads) progress(ctx context.Context, ev *browser.EventDownloadProgress) {
	d.mu.Lock()
	dl := d.byGUID[ev.GUID]
	var state string
	if dl != nil && dl.state == "" {
		dl.received = int64(ev.ReceivedBytes) // a stopped one keeps the count it was stopped at
	}
	if dl != nil {
		state = dl.state
	}
	d.mu.Unlock()
	if dl == nil {
		return // another session's download
	}
	if state != "" {
		// Refused or canceled by us: the browser may still finish it before
		// the cancel lands, so remove what it leaves.
		if ev.State != browser.DownloadProgressStateInProgress {
			d.discard(dl)
		}
		return
	}
	too := func(n float64) bool { return int64(n) > d.max }
	switch ev.State {
	case browser.DownloadProgressStateInProgress:
		if too(ev.TotalBytes) || too(ev.ReceivedBytes) {
			d.stop(ctx, dl, calls.DownloadCanceled, fmt.Sprintf("larger than the limit of %d bytes", d.max))
		} else if d.overTotal() {
			d.stop(ctx, dl, calls.DownloadCanceled, d.fullReason())
		}
	case browser.DownloadProgressStateCompleted:
		if too(ev.ReceivedBytes) {
			d.stop(ctx, dl, calls.DownloadCanceled, fmt.Sprintf("larger than the limit of %d bytes", d.max))
			return
		}
		if d.overTotal() {
			d.stop(ctx, dl, calls.DownloadCanceled, d.fullReason())
			return
		}
		d.complete(dl)
	case browser.DownloadProgressStateCanceled:
		d.finish(dl, calls.DownloadCanceled, "canceled by the browser or the page", "")
		d.discard(dl)
	}
}

// overTotal reports whether the session's downloads hold more than they
// may in all.
func (d *Downloads) overTotal() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.heldLocked() > d.total()
}

// complete moves the finished file from its GUID name to its safe name.
func (d *Downloads) complete(dl *download) {
	src := filepath.Join(d.dir, dl.guid)
	dst, err := placeFile(src, d.dir, dl.name)
	if err != nil {
		d.log.Warn("download: keep file", "err", err)
		d.finish(dl, calls.DownloadCanceled, "the file could not be kept: "+err.Error(), "")
		d.discard(dl)
		return
	}
	if fi, err := os.Stat(dst); err == nil {
		d.mu.Lock()
		dl.received = fi.Size()
		d.mu.Unlock()
	}
	d.finish(dl, calls.DownloadCompleted, "", dst)
}

// expire cancels downloads that have run past the Timeout.
func (d *Downloads) expire(ctx context.Context) {
	d.mu.Lock()
	var late []*download
	for _, dl := range d.list {
		if dl.state == "" && time.Since(dl.began) > d.limit {
			late = append(late, dl)
		}
	}
	d.mu.Unlock()
	for _, dl := range late {
		d.stop(ctx, dl, calls.DownloadCanceled, fmt.Sprintf("took longer than the limit of %s", d.limit))
	}
}

// stop cancels a running download, records why, and removes its file.
func (d *Downloads) stop(ctx context.Context, dl *download, state, reason string) {
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_, err := chromedp.CallBrowser(cctx, browser.CancelDownload, browser.CancelDownloadParams{GUID: dl.guid, BrowserContextID: d.bcid})
	if err != nil {
		// It may have finished already; discard cleans up after it.
		d.log.Debug("download: cancel", "err", err)
	}
	d.finish(dl, state, reason, "")
	d.discard(dl)
}

func (d *Downloads) finish(dl *download, state, reason, path string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	dl.state, dl.reason, dl.path = state, reason, path
	d.notify()
}

// notify wakes collect; d.mu must be held.
func (d *Downloads) notify() {
	close(d.changed)
	d.changed = make(chan struct{})
}

// discard removes what a stopped download left in the folder, now and at
// every tick for sweepFor after.
func (d *Downloads) discard(dl *download) {
	d.mu.Lock()
	dl.sweepUntil = time.Now().Add(sweepFor)
	d.mu.Unlock()
	d.removePartial(dl)
}

// sweep removes again what the downloads stopped before until left; a
// zero until sweeps every stopped one (at close).
func (d *Downloads) sweep(until time.Time) {
	d.mu.Lock()
	var stopped []*download
	for _, dl := range d.list {
		if !dl.sweepUntil.IsZero() && (until.IsZero() || dl.sweepUntil.After(until)) {
			stopped = append(stopped, dl)
		}
	}
	d.mu.Unlock()
	for _, dl := range stopped {
		d.removePartial(dl)
	}
}

// removePartial removes what a stopped download left in the folder.
func (d *Downloads) removePartial(dl *download) {
	for _, p := range []string{dl.guid, dl.guid + ".crdownload"} {
		if err := os.Remove(filepath.Join(d.dir, p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			d.log.Warn("download: remove partial file", "err", err)
		}
	}
}

func (d *Downloads) allowed(name string) bool {
	lower := strings.ToLower(name)
	return slices.ContainsFunc(d.exts, func(e string) bool { return strings.HasSuffix(lower, e) && len(lower) > len(e) })
}

// mark returns a marker: the downloads that begin after it are an
// action's. A nil watcher (a session without one) marks nothing.
func (d *Downloads) Mark() int {
	if d == nil {
		return 0
	}
	d.qmu.Lock()
	defer d.qmu.Unlock()
	return d.arrived
}

// began reports whether a download has begun since the mark. A nil
// watcher has none.
func (d *Downloads) Began(mark int) bool {
	if d == nil {
		return false
	}
	d.qmu.Lock()
	defer d.qmu.Unlock()
	return d.arrived > mark
}

// collect returns the session's downloads that began after the mark,
// waiting for the ones still running to end (bounded by the Timeout and
// ctx). One still running when the wait ends is reported in-progress.
func (d *Downloads) Collect(ctx context.Context, mark int) []calls.Download {
	if d == nil {
		return nil
	}
	d.qmu.Lock()
	arrived := d.arrived
	d.qmu.Unlock()
	if arrived == mark {
		return nil // nothing began: the common case costs nothing
	}
	// The watcher cancels each download at the Timeout; the margin is for
	// the cancel to land on a busy machine.
	deadline := time.NewTimer(d.limit + 5*time.Second)
	defer deadline.Stop()
	for {
		d.mu.Lock()
		ready := d.processed >= arrived
		var mine []*download
		for _, dl := range d.list {
			if dl.arrival > mark && dl.arrival <= arrived {
				mine = append(mine, dl)
				ready = ready && dl.state != ""
			}
		}
		changed := d.changed
		if ready {
			out := report(mine)
			d.mu.Unlock()
			return out
		}
		d.mu.Unlock()
		select {
		case <-changed:
			continue
		case <-deadline.C:
		case <-ctx.Done():
		case <-d.done:
		}
		d.mu.Lock()
		out := report(mine)
		d.mu.Unlock()
		return out
	}
}

// report describes downloads for an outcome or a list, and marks the
// ended ones reported; the caller holds d.mu. One still running stays
// unreported, so that a later look tells how it ended.
func report(list []*download) []calls.Download {
	var out []calls.Download
	for _, dl := range list {
		out = append(out, dl.describe())
		dl.reported = dl.state != ""
	}
	return out
}

// describe is the download as calls carry it; the caller holds d.mu.
func (dl *download) describe() calls.Download {
	state := dl.state
	if state == "" {
		state = calls.DownloadInProgress
	}
	return calls.Download{Name: dl.name, Path: dl.path, Bytes: dl.received, State: state, Reason: dl.reason}
}

// all returns every download of the session in the order they began, and
// marks the ended ones reported. A nil watcher has none.
func (d *Downloads) All() []calls.Download {
	out := []calls.Download{}
	if d == nil {
		return out
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return append(out, report(d.list)...)
}

// notices tells a look about the downloads nobody has been told of: one
// that began outside an action (a page's timer, a refresh, an open of a
// file's URL) or ended after its action's outcome. It marks the ended ones
// reported; one still running is told again at each look until its end is.
// A nil watcher has none.
func (d *Downloads) Notices() []calls.Notice {
	if d == nil {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []calls.Notice
	for _, dl := range d.list {
		if dl.reported {
			continue
		}
		c := dl.describe()
		dl.reported = dl.state != ""
		var msg string
		switch c.State {
		case calls.DownloadCompleted:
			msg = fmt.Sprintf("%s downloaded (%d bytes) to %s", c.Name, c.Bytes, c.Path)
		case calls.DownloadInProgress:
			msg = fmt.Sprintf("%s in progress (%d bytes so far)", c.Name, c.Bytes)
		default:
			msg = fmt.Sprintf("%s %s: %s", c.Name, c.State, c.Reason)
		}
		detail := map[string]string{"name": c.Name, "state": c.State, "bytes": strconv.FormatInt(c.Bytes, 10)}
		if c.Path != "" {
			detail["path"] = c.Path
		}
		if c.Reason != "" {
			detail["reason"] = c.Reason
		}
		out = append(out, calls.Notice{Kind: calls.NoticeDownload, Message: msg, Detail: detail})
	}
	return out
}

// close stops the watcher and removes the folder if it is a temporary
// one. It is safe on a nil watcher.
func (d *Downloads) Close() error {
	if d == nil {
		return nil
	}
	d.cancel()
	<-d.done
	if !d.temp {
		d.sweep(time.Time{}) // a shared folder keeps no stopped download's leftovers
	}
	return d.removeTemp()
}

func (d *Downloads) removeTemp() error {
	if !d.temp {
		return nil
	}
	if err := os.RemoveAll(d.dir); err != nil {
		return fmt.Errorf("remove downloads folder: %w", err)
	}
	return nil
}
