package driver

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/files"
	"github.com/waymark-dev/waymark/driver/internal/form"
	"github.com/waymark-dev/waymark/siteapi"
)

// Session is a named browser context: its own cookies, storage, tabs and
// ref table. Calls on one session must not overlap (the daemon runs them one
// at a time); calls on different sessions may.
type Session struct {
	name    string
	browser *Browser
	bcid    cdp.BrowserContextID
	refs    *refTable
	// downloads watches the context's downloads (download.go); nil only
	// while newSession runs.
	downloads *files.Downloads
	// log is what the pages logged and requested (pagelog.go).
	log *pageLog

	// mu guards tabs, cur and secrets.
	mu   sync.Mutex
	tabs []*tab
	cur  *tab
	// secrets are the fields a secret was typed into, by element, with the
	// secret's name (secret.go).
	secrets map[cdp.BackendNodeID]secretField
	// formReview keeps the form pages the session read or filled, for a
	// review of a multi-step form (form_review.go); its own lock.
	formReview form.Review
	// apiBackoff is when each host a site API call got a 429 from may be
	// called again (api.go).
	apiBackoff siteapi.Backoff
	// atsDefs are the ATS form definitions read, by their URL: each is
	// read once a session (ats.go).
	atsDefs form.ATSDefs
}

// A Session answers every call of calls.Session, the API the daemon serves
// and the fronts call through calls.Remote.
var _ calls.Session = (*Session)(nil)

func newSession(ctx context.Context, b *Browser, name string) (*Session, error) {
	// With the daemon's proxy, the context reaches the network only through
	// it (netguard.go): Chromium then resolves no name itself.
	var params target.CreateBrowserContextParams
	if b.proxy != nil {
		// "<-loopback>" drops Chromium's own bypass of loopback and
		// link-local addresses, so a page's request to 169.254.169.254 is
		// judged by the proxy like any other.
		params.ProxyServer, params.ProxyBypassList = b.proxy.URL(), "<-loopback>"
	}
	res, err := chromedp.CallBrowser(b.ctx, target.CreateBrowserContext, params)
	if err != nil {
		return nil, fmt.Errorf("create browser context: %w", browserErr(err))
	}
	s := &Session{name: name, browser: b, bcid: res.BrowserContextID, refs: newRefTable(), log: newPageLog()}
	// Downloads land in the session's folder within limits (download.go).
	if s.downloads, err = startDownloads(ctx, s); err != nil {
		s.dispose()
		return nil, err
	}
	t, err := s.openTab(ctx, "")
	if err != nil {
		s.dispose()
		return nil, err
	}
	s.cur = t
	return s, nil
}

// Name returns the session's name.
func (s *Session) Name() string { return s.name }

// openTab opens a new tab in the session's browser context, or attaches to
// an existing target when id is set (a tab the page opened).
func (s *Session) openTab(ctx context.Context, id target.ID) (*tab, error) {
	t, err := s.attachTab(ctx, id)
	if err != nil {
		return nil, err
	}
	s.addTab(t)
	return t, nil
}

// attachTab is openTab up to the tab's listing in the session.
func (s *Session) attachTab(ctx context.Context, id target.ID) (*tab, error) {
	var opt chromedp.ContextOption
	if id != "" {
		opt = chromedp.WithTargetID(id)
	} else {
		opt = chromedp.WithExistingBrowserContext(s.bcid)
	}
	tctx, cancel := chromedp.NewContext(s.browser.ctx, opt)
	t := newTab(tctx, cancel)
	t.log, t.refs = s.log, s.refs
	// The first Do attaches the target and binds its life to tctx, so it
	// runs on tctx; the caller's ctx only bounds the wait.
	done := make(chan error, 1)
	go func() { done <- chromedp.Do(tctx) }()
	select {
	case err := <-done:
		if err != nil {
			cancel()
			return nil, fmt.Errorf("open tab: %w", browserErr(err))
		}
	case <-ctx.Done():
		go cancel()
		return nil, ctx.Err()
	}
	c := chromedp.FromContext(tctx)
	t.id = c.Target.TargetID
	if err := t.start(); err != nil {
		cancel()
		return nil, err
	}
	if err := t.guard(s.browser.judge, s.browser.attached); err != nil {
		cancel()
		return nil, err
	}
	return t, nil
}

// addTab lists an attached tab in the session. It is listed before it
// stops being new: the browser target's guard finds the tab of each
// document after (newtabs.go).
func (s *Session) addTab(t *tab) {
	s.mu.Lock()
	s.tabs = append(s.tabs, t)
	s.mu.Unlock()
	s.browser.adopted(t.id)
}

// current returns the current tab, adopting tabs the page opened and
// dropping tabs that closed themselves.
func (s *Session) current(ctx context.Context) (*tab, error) {
	if !s.browser.Alive() {
		return nil, &calls.Error{Kind: calls.ErrBrowserGone, Msg: "the browser is gone (it crashed or was killed)", Hint: "run the command again: a new browser starts"}
	}
	s.mu.Lock()
	var live []*tab
	for _, t := range s.tabs {
		if t.closed() {
			s.log.forgetTab(t) // its requests in flight will not end now
			continue
		}
		live = append(live, t)
	}
	s.tabs = live
	if s.cur != nil && s.cur.closed() {
		s.cur = nil
		if len(live) > 0 {
			s.cur = live[len(live)-1]
		}
	}
	cur := s.cur
	s.mu.Unlock()
	if cur == nil {
		t, err := s.openTab(ctx, "")
		if err != nil {
			return nil, err
		}
		s.mu.Lock()
		s.cur = t
		s.mu.Unlock()
		cur = t
	}
	return cur, nil
}

// adoptNewTabs attaches to page targets of this browser context that no
// tab holds yet (opened by the page: target=_blank, window.open) and
// returns them. Each is judged where it landed (refuseTab) and closed if
// refused, except those opened by the tab actor: the action that opened
// them judges them once they have loaded (outcome).
func (s *Session) adoptNewTabs(ctx context.Context, actor target.ID) ([]*tab, error) {
	infos, err := chromedp.Targets(s.browser.ctx)
	if err != nil {
		return nil, browserErr(err)
	}
	s.mu.Lock()
	known := map[target.ID]bool{}
	for _, t := range s.tabs {
		known[t.id] = true
	}
	s.mu.Unlock()
	var news []*target.Info
	for _, info := range infos {
		if info.Type != "page" || info.BrowserContextID != s.bcid || known[info.TargetID] || s.browser.overTab(info.TargetID) {
			continue
		}
		news = append(news, info)
	}
	// Each is attached on a deadline of its own, all at once: a tab whose
	// renderer crashed (a popup in the process of a page that was
	// stopped) or is stuck never answers the attach, and one such tab
	// held every later call of the session until its caller gave up
	// (internal/adversarial TestPopupFloodIsStopped).
	tabs := make([]*tab, len(news))
	errs := make([]error, len(news))
	var wg sync.WaitGroup
	for i, info := range news {
		wg.Go(func() {
			actx, cancel := context.WithTimeout(ctx, adoptWait)
			defer cancel()
			tabs[i], errs[i] = s.attachTab(actx, info.TargetID)
		})
	}
	wg.Wait()
	var added []*tab
	for i, info := range news {
		t := tabs[i]
		if errs[i] != nil {
			if errors.Is(errs[i], context.DeadlineExceeded) && ctx.Err() == nil {
				// Nobody has seen it, and nobody could use it: closed,
				// so that it neither counts against MaxTabs nor holds
				// the next call.
				s.browser.log.Debug("closed a new tab that did not answer", "session", s.name, "target", string(info.TargetID))
				go s.browser.closeTarget(info.TargetID)
			}
			continue // else it may have closed again already
		}
		s.addTab(t)
		t.opener = info.OpenerID
		// info.URL may be where a load under way is going, before the
		// tab's document says so.
		if (actor == "" || t.opener != actor) && s.refuseTab(ctx, t, info.URL) != nil {
			continue
		}
		added = append(added, t)
	}
	return added, nil
}

// adoptWait bounds the attach of a tab a page opened.
const adoptWait = 5 * time.Second

// drop removes t from the session's tabs; when it was the current tab,
// the last one left becomes current.
func (s *Session) drop(t *tab) {
	s.log.forgetTab(t) // its requests in flight will not end now
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, x := range s.tabs {
		if x == t {
			s.tabs = append(s.tabs[:i:i], s.tabs[i+1:]...)
			break
		}
	}
	if s.cur == t {
		s.cur = nil
		if len(s.tabs) > 0 {
			s.cur = s.tabs[len(s.tabs)-1]
		}
	}
}

// Close closes the session's tabs and disposes of its browser context.
func (s *Session) Close() error {
	s.stopCapture() // a capture is the session's: it ends with it
	s.mu.Lock()
	tabs := s.tabs
	s.tabs, s.cur = nil, nil
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(s.browser.ctx), probeTimeout+crashWait)
	defer cancel()
	// What the last actions left to settle (pending.go) ends first: the
	// requests they set going reach their server before the context goes.
	for _, t := range tabs {
		_ = t.awaitPending(ctx)
	}
	for _, t := range tabs {
		t.closeStuck(ctx)
	}
	return s.dispose()
}

func (s *Session) dispose() error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(s.browser.ctx), 5*time.Second)
	defer cancel()
	_, err := chromedp.CallBrowser(ctx, target.DisposeBrowserContext, target.DisposeBrowserContextParams{BrowserContextID: s.bcid})
	// Stop the download watcher and remove a temporary downloads folder,
	// after the context (and its downloads) are gone.
	derr := s.downloads.Close()
	if err != nil && s.browser.Alive() {
		return errors.Join(fmt.Errorf("dispose browser context: %w", err), derr)
	}
	return derr
}

// Info returns the number of tabs and the current URL.
func (s *Session) Info() (tabs int, url string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur != nil {
		url = s.mask(s.cur.url()) // a page may echo a secret into its URL
	}
	return len(s.tabs), url
}

// browserErr turns a failure of the connection into ErrBrowserGone.
func browserErr(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, chromedp.ErrTargetDetached) || errors.Is(err, chromedp.ErrChannelClosed) {
		return &calls.Error{Kind: calls.ErrBrowserGone, Msg: fmt.Sprintf("the browser is gone: %v", err), Hint: "run the command again: a new browser starts"}
	}
	return err
}

// currentTab returns the current tab as it is, without adopting or
// dropping any (current does).
func (s *Session) currentTab() *tab {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur
}
