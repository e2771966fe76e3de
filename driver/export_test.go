package driver

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"time"
)

// CrashTab crashes the renderer of the session's current tab (Page.crash),
// as a page that runs out of memory would, and waits until the tab knows.
func CrashTab(ctx context.Context, s *Session) error {
	t, err := s.current(ctx)
	if err != nil {
		return err
	}
	go func() { _, _ = cdp.Call(ctx, t.sess, page.Crash, cdp.Empty{}) }() // no answer comes
	for {
		if crashed, _ := t.health(); crashed {
			return nil
		}
		select {
		case <-t.watch():
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// ProbeKinds tries probe commands on the current tab, each bounded, and
// says which answered.
func ProbeKinds(ctx context.Context, s *Session) map[string]error {
	t, _ := s.current(ctx)
	out := map[string]error{}
	try := func(name string, f func(ctx context.Context) error) {
		c, cancel := context.WithTimeout(ctx, 1500*time.Millisecond)
		defer cancel()
		out[name] = f(c)
	}
	try("evaluate", func(c context.Context) error {
		_, err := cdp.Call(c, t.sess, runtime.Evaluate, runtime.EvaluateParams{Expression: "0"})
		return err
	})
	try("frametree", func(c context.Context) error {
		_, err := cdp.Call(c, t.sess, page.GetFrameTree, cdp.Empty{})
		return err
	})
	try("getdocument", func(c context.Context) error {
		_, err := cdp.Call(c, t.sess, dom.GetDocument, dom.GetDocumentParams{})
		return err
	})
	try("heap", func(c context.Context) error {
		_, err := cdp.Call(c, t.sess, runtime.GetHeapUsage, cdp.Empty{})
		return err
	})
	try("isolated", func(c context.Context) error {
		id, err := t.world(c, t.sess, t.mainFrame())
		if err != nil {
			return err
		}
		_, err = cdp.Call(c, t.sess, runtime.Evaluate, runtime.EvaluateParams{Expression: "0", ContextID: id})
		return err
	})
	return out
}
