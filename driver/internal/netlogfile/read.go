package netlogfile

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"slices"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/netlog"
)

// Read flushes the browser's NetLog file (written by the browser of
// browserCtx, chromedp's browser context) and sums up the span req names.
// browserErr turns a failure of the connection into the core's error.
func Read(ctx, browserCtx context.Context, file string, req calls.NetLogRequest, browserErr func(error) error) (*calls.NetLogResult, error) {
	if req.UntilUnixMS == 0 {
		// Not the flush's own requests.
		req.UntilUnixMS = time.Now().UnixMilli()
	}
	if err := flush(ctx, browserCtx, file, browserErr); err != nil {
		return nil, err
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("read the NetLog: %w", err)
	}
	defer f.Close()
	var opts netlog.Options
	if req.SinceUnixMS != 0 {
		opts.Since = time.UnixMilli(req.SinceUnixMS)
	}
	opts.Until = time.UnixMilli(req.UntilUnixMS)
	sum, err := netlog.Summarize(f, &opts)
	if err != nil {
		return nil, fmt.Errorf("read the NetLog %s: %w", file, err)
	}
	dropFlushes(sum)
	js, err := json.Marshal(sum)
	if err != nil {
		return nil, err
	}
	return &calls.NetLogResult{File: file, Brief: sum.Brief(), Markdown: sum.Markdown(), Summary: js}, nil
}

// flushHost is where flush's own requests go: port 1 of loopback,
// which Chromium refuses to every page (ERR_UNSAFE_PORT), so no page's
// request is ever there.
const flushHost = "127.0.0.1:1"

// dropFlushes takes the flushes' own requests out of a summary. A span
// asked for after an earlier flush holds that flush's requests (a step's
// span, then the whole run's; the spans of a daemon's sessions, which
// cross), and their URL, masked as a credential, would be the span's
// first failure.
func dropFlushes(sum *netlog.Summary) {
	sum.Requests = slices.DeleteFunc(sum.Requests, func(r netlog.Request) bool {
		u, err := url.Parse(r.URL)
		return err == nil && u.Host == flushHost
	})
	sum.ErrorsByHost = slices.DeleteFunc(sum.ErrorsByHost, func(h netlog.HostErrors) bool { return h.Host == flushHost })
}

// fileHasAfter reports whether the file holds s after byte from.
func fileHasAfter(file string, from int64, s string) (bool, error) {
	f, err := os.Open(file)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil // Chromium has not written it yet
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	raw, err := io.ReadAll(io.NewSectionReader(f, from, 1<<62))
	if err != nil {
		return false, err
	}
	return bytes.Contains(raw, []byte(s)), nil
}

// flush waits until every event logged before now is in the file.
// Chromium writes its NetLog in batches of 15 events (FileNetLogObserver's
// write queue, as of Chromium 156, 2026-12), so the last events of a
// failed request can sit in memory after the failure. A request of our
// own that cannot leave the machine (to port 1 of loopback, refused, in a
// browser context of its own) adds a few dozen events after them: once
// its URL is in the file, so is everything logged before it. (Under a
// policy that refuses loopback the new-tab guard fails the request
// instead; Chromium logs it all the same.)
func flush(ctx, browserCtx context.Context, file string, browserErr func(error) error) error {
	var nonce [6]byte
	_, _ = rand.Read(nonce[:])
	marker := "http://" + flushHost + "/waymark-netlog-flush-" + hex.EncodeToString(nonce[:])
	bc, err := chromedp.CallBrowser(browserCtx, target.CreateBrowserContext, target.CreateBrowserContextParams{})
	if err != nil {
		return fmt.Errorf("flush the NetLog: %w", browserErr(err))
	}
	defer func() {
		_, _ = chromedp.CallBrowser(browserCtx, target.DisposeBrowserContext, target.DisposeBrowserContextParams(bc))
	}()
	// The marker lands after what the file holds now: read only that,
	// since a daemon's log may be large.
	var from int64
	if fi, err := os.Stat(file); err == nil {
		from = fi.Size()
	}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	// Each attempt adds a request's events; a few are enough for a batch
	// even when Chromium logs fewer events for a refused connection.
	for attempt := range 5 {
		if _, err := chromedp.CallBrowser(browserCtx, target.CreateTarget, target.CreateTargetParams{URL: fmt.Sprintf("%s?%d", marker, attempt), BrowserContextID: bc.BrowserContextID}); err != nil {
			return fmt.Errorf("flush the NetLog: %w", browserErr(err))
		}
		for range 20 { // a second an attempt
			found, err := fileHasAfter(file, from, marker)
			if err != nil {
				return fmt.Errorf("read the NetLog: %w", err)
			}
			if found {
				return nil
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-tick.C:
			}
		}
	}
	return calls.Errorf(calls.ErrTimeout, "", "the NetLog %s did not catch up with the browser", file)
}
