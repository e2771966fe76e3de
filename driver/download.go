package driver

import (
	"context"
	"slices"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/files"
)

// DownloadOptions limit what a session's downloads may be. The zero value
// is valid: a temporary folder per session, 100 MB, a list of document,
// data and image extensions, and two minutes.
type DownloadOptions struct {
	// Dir is the folder downloads land in, created if missing and kept at
	// Close; sessions share it. Empty means a temporary folder per session,
	// removed when the session closes. For a browser attached with
	// Options.CDP the folder must be on the browser's machine.
	Dir string
	// MaxBytes is the largest download kept; a larger one is canceled and
	// its partial file removed. Zero means 100 MB. A session's downloads
	// hold ten times that in all: past it, later ones are refused.
	MaxBytes int64
	// Extensions are the file name endings allowed, lower-case with the
	// dot (".csv", ".tar.gz"); a download whose suggested name ends
	// otherwise is refused before it starts. Empty means
	// [DefaultDownloadExtensions].
	Extensions []string
	// Timeout is the longest a download may take; a slower one is
	// canceled. It also bounds how long an action waits for the downloads
	// it started. Zero means 2 minutes.
	Timeout time.Duration
}

// DefaultDownloadExtensions are the endings allowed when
// DownloadOptions.Extensions is empty: documents, data, archives and images,
// nothing a system runs by opening it.
var DefaultDownloadExtensions = []string{
	".pdf", ".csv", ".tsv", ".txt", ".md", ".json", ".xml", ".ics",
	".zip", ".gz", ".png", ".jpg", ".jpeg", ".gif", ".webp",
	".xlsx", ".xls", ".docx", ".doc", ".pptx", ".odt", ".ods", ".odp",
}

// startDownloads starts the session's download watcher
// (driver/internal/files) with the browser's options.
func startDownloads(ctx context.Context, s *Session) (*files.Downloads, error) {
	o := s.browser.opts.Downloads
	return files.Start(ctx, s.browser.ctx, files.Config{Context: s.bcid, OwnsFrame: s.ownsFrame,
		Dir: o.Dir, MaxBytes: o.MaxBytes, Extensions: o.Extensions, DefaultExtensions: DefaultDownloadExtensions,
		Timeout: o.Timeout, Log: s.browser.log, BrowserErr: browserErr})
}

// Downloads lists every download of the session in the order they began,
// with where each landed or why it was stopped. The ended ones count as
// reported: a later look does not tell them again.
func (s *Session) Downloads(ctx context.Context) (reply *calls.DownloadList, err error) {
	defer s.masked(&reply, &err)
	s.settledLogs(ctx)
	return &calls.DownloadList{Downloads: s.downloads.All()}, nil
}

// ownsFrame reports whether a frame belongs to this session's browser
// context: a tab's main frame (its id is the target's), an out-of-process
// frame or new tab (a target whose context the browser tells), or a frame
// inside one of the session's tabs.
func (s *Session) ownsFrame(ctx context.Context, id cdp.FrameID) bool {
	s.mu.Lock()
	tabs := slices.Clone(s.tabs)
	s.mu.Unlock()
	for _, t := range tabs {
		if string(t.id) == string(id) {
			return true
		}
	}
	cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if info, err := chromedp.CallBrowser(cctx, target.GetTargetInfo, target.GetTargetInfoParams{TargetID: target.ID(id)}); err == nil {
		return info.TargetInfo.BrowserContextID == s.bcid
	}
	for _, t := range tabs {
		tree, err := cdp.Call(cctx, t.sess, page.GetFrameTree, cdp.Empty{})
		if err == nil && hasFrame(tree.FrameTree, id) {
			return true
		}
	}
	return false
}

func hasFrame(ft *page.FrameTree, id cdp.FrameID) bool {
	if ft == nil {
		return false
	}
	if ft.Frame != nil && ft.Frame.ID == id {
		return true
	}
	return slices.ContainsFunc(ft.ChildFrames, func(c *page.FrameTree) bool { return hasFrame(c, id) })
}
