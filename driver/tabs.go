package driver

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/waymark-dev/waymark/calls"
)

// Tab lists, opens, switches or closes the session's tabs.
func (s *Session) Tab(ctx context.Context, req calls.TabRequest) (reply *calls.TabList, err error) {
	defer s.masked(&reply, &err)
	if _, err := s.current(ctx); err != nil {
		return nil, err
	}
	if _, err := s.adoptNewTabs(ctx, ""); err != nil {
		return nil, err
	}
	switch req.Op {
	case "", "list":
	case "new":
		if s.browser.tabsFull(s.bcid) {
			return nil, calls.Errorf(calls.ErrBadInput, "close a tab first: "+calls.Cmd("tab close"),
				"the session holds %d tabs, the most it may", MaxTabs)
		}
		t, err := s.openTab(ctx, "")
		if err != nil {
			return nil, err
		}
		s.mu.Lock()
		s.cur = t
		s.mu.Unlock()
		if req.URL != "" {
			u, err := NormalizeURL(req.URL)
			if err != nil {
				return nil, err
			}
			if _, err := s.navigate(ctx, t, 0, chromedp.Navigate(u), u); err != nil {
				return nil, err
			}
		}
	case "switch":
		t, err := s.tabAt(req.Index)
		if err != nil {
			return nil, err
		}
		if _, err := call(ctx, t, page.BringToFront, cdp.Empty{}); err != nil {
			return nil, err
		}
		s.mu.Lock()
		s.cur = t
		s.mu.Unlock()
	case "close":
		idx := req.Index
		if idx < 0 {
			idx = s.currentIndex()
		}
		t, err := s.tabAt(idx)
		if err != nil {
			return nil, err
		}
		t.closeStuck(ctx)
		s.drop(t)
	default:
		return nil, calls.Errorf(calls.ErrBadInput, "tab list | new [URL] | switch N | close [N]", "unknown tab command %q", req.Op)
	}
	list, err := s.tabList(ctx)
	if err != nil {
		return nil, err
	}
	return &calls.TabList{Tabs: list}, nil
}

func (s *Session) tabAt(i int) (*tab, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i < 0 || i >= len(s.tabs) {
		return nil, calls.Errorf(calls.ErrBadInput, "run "+calls.Cmd("tab list")+" to see the tabs", "no tab %d (the session has %d)", i, len(s.tabs))
	}
	return s.tabs[i], nil
}

func (s *Session) currentIndex() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, t := range s.tabs {
		if t == s.cur {
			return i
		}
	}
	return -1
}

// tabList describes the session's tabs in order.
func (s *Session) tabList(ctx context.Context) ([]calls.TabInfo, error) {
	infos, err := chromedp.Targets(s.browser.ctx)
	if err != nil {
		return nil, browserErr(err)
	}
	byID := map[target.ID]*target.Info{}
	for _, in := range infos {
		byID[in.TargetID] = in
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]calls.TabInfo, 0, len(s.tabs))
	for i, t := range s.tabs {
		ti := calls.TabInfo{Index: i, Current: t == s.cur, URL: shownURL(t.url())}
		if in, ok := byID[t.id]; ok {
			ti.URL, ti.Title = shownURL(in.URL), in.Title
		}
		out = append(out, ti)
	}
	return out, nil
}
