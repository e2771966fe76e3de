package driver

import (
	"context"
	"fmt"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/waymark-dev/waymark/calls"
)

// frameTarget is an out-of-process iframe (a cross-site frame Chromium runs
// in its own renderer). chromedp does not attach to these by itself, so the
// tab attaches to each with a flat session of its own.
type frameTarget struct {
	id     target.ID // equals the frame's id
	parent target.ID // the target that holds the <iframe> element: the tab's or another frame's
	ctx    context.Context
	cancel context.CancelFunc
	sess   *chromedp.Target
}

// attachFrame returns the attached frame target, attaching once.
func (t *tab) attachFrame(ctx context.Context, id, parent target.ID) (*frameTarget, error) {
	t.mu.Lock()
	ft, ok := t.frames[id]
	t.mu.Unlock()
	if ok && ft.ctx.Err() == nil {
		ft.parent = parent
		return ft, nil
	}
	// The first Do attaches and binds the session's life to fctx, a child
	// of the tab's context; the request's ctx only bounds the wait. Its
	// end detaches, never closes the target: closing a frame's target
	// closes the page it is in (a frame busy in a script times the attach
	// out, and the page went with it).
	fctx, cancel := chromedp.NewContext(t.ctx, chromedp.WithTargetID(id), chromedp.WithDetachOnCancel())
	done := make(chan error, 1)
	go func() { done <- chromedp.Do(fctx) }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		go cancel()
		return nil, ctx.Err()
	}
	if err != nil {
		cancel()
		return nil, err
	}
	ft = &frameTarget{id: id, parent: parent, ctx: fctx, cancel: cancel, sess: chromedp.FromContext(fctx).Target}
	if err := untrackDOM(ctx, ft.sess); err != nil {
		cancel()
		return nil, err
	}
	t.mu.Lock()
	t.frames[id] = ft
	t.mu.Unlock()
	// A dialog a cross-site frame opens is the frame target's: the tab
	// hears of it only here (health.go).
	if err := chromedp.Listen(fctx, func(ev any) { t.onFrameEvent(ft, ev) }); err != nil {
		return nil, err
	}
	return ft, nil
}

// session returns the CDP session for a target id: the tab's own for "" or
// the tab's id, else the out-of-process frame's.
func (t *tab) session(id target.ID) (cdp.Session, error) {
	if id == "" || id == t.id {
		return t.sess, nil
	}
	t.mu.Lock()
	ft, ok := t.frames[id]
	t.mu.Unlock()
	if !ok || ft.ctx.Err() != nil {
		return nil, fmt.Errorf("frame %s is gone: %w", id, calls.ErrStaleRef)
	}
	return ft.sess, nil
}

// frameOffset returns where the frame target's viewport starts in the top
// page's coordinates: the content box of its <iframe> element, summed up the
// chain of out-of-process parents.
func (t *tab) frameOffset(ctx context.Context, id target.ID) (x, y float64, err error) {
	for id != "" && id != t.id {
		t.mu.Lock()
		ft, ok := t.frames[id]
		t.mu.Unlock()
		if !ok {
			return 0, 0, fmt.Errorf("frame %s is gone: %w", id, calls.ErrStaleRef)
		}
		psess, err := t.session(ft.parent)
		if err != nil {
			return 0, 0, err
		}
		owner, err := cdp.Call(ctx, psess, dom.GetFrameOwner, dom.GetFrameOwnerParams{FrameID: cdp.FrameID(id)})
		if err != nil {
			return 0, 0, browserErr(err)
		}
		box, err := cdp.Call(ctx, psess, dom.GetBoxModel, dom.GetBoxModelParams{BackendNodeID: owner.BackendNodeID})
		if err != nil {
			return 0, 0, browserErr(err)
		}
		if len(box.Model.Content) >= 2 {
			x += box.Model.Content[0]
			y += box.Model.Content[1]
		}
		id = ft.parent
	}
	return x, y, nil
}
