package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/waymark-dev/waymark/calls"
)

// Scripts of ours run only in an isolated world named "waymark": it shares
// the DOM with the page but not its globals or prototypes, so the page
// cannot see us and cannot tamper with what we read (invariant 7).
const worldName = "waymark"

// objectGroup holds the remote objects one action resolves; releasing the
// group frees them all at once.
const objectGroup = "waymark"

// callGroups numbers the object groups of callOn.
var callGroups atomic.Int64

// callGroup returns an object group of its own for one call on an element:
// releasing it cannot free what another call still uses, so it can be
// released without waiting (releaseLater).
func callGroup() string {
	return objectGroup + "-" + strconv.FormatInt(callGroups.Add(1), 10)
}

// releaseLater releases an object group without waiting for the answer: the
// call that used it has its result, and a round trip per call on an
// element is a tenth of a fill's time on a busy machine. An error (the
// page went away, and the objects with it) does not matter.
func releaseLater(ctx context.Context, sess cdp.Session, group string) {
	go func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_, _ = cdp.Call(rctx, sess, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: group})
	}()
}

// isolatedWorld is a frame's world: ready is closed once id (or err) is
// set.
type isolatedWorld struct {
	ready chan struct{}
	id    runtime.ExecutionContextID
	err   error
}

// prepareWorldLocked starts creating the isolated world of a document that
// just committed in frame, so the page's load and the world's creation
// overlap: a read right after a load (a list over pages, a recipe) finds
// its world ready instead of paying ~15 ms to create it. Nearly every
// command reads the page through the world, so it is rarely made in vain.
// Called from onEvent with t.mu held; the call runs in a goroutine that
// ends when Chromium answers or the tab's context ends.
func (t *tab) prepareWorldLocked(frame cdp.FrameID) {
	if t.sess == nil {
		return
	}
	w := &isolatedWorld{ready: make(chan struct{})}
	t.isolated[frame] = w
	sess := t.sess
	go func() {
		defer close(w.ready)
		res, err := cdp.Call(t.ctx, sess, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{
			FrameID: frame, WorldName: worldName, GrantUniveralAccess: new(false),
		})
		if err != nil {
			w.err = err
			return
		}
		w.id = res.ExecutionContextID
	}()
}

// world returns the isolated world of a frame, creating it once per
// document (or waiting for the one prepareWorldLocked is creating). sess
// is the session of the target the frame lives in.
func (t *tab) world(ctx context.Context, sess cdp.Session, frame cdp.FrameID) (runtime.ExecutionContextID, error) {
	t.mu.Lock()
	w, ok := t.isolated[frame]
	t.mu.Unlock()
	if ok {
		select {
		case <-w.ready:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
		if w.err == nil {
			return w.id, nil
		}
		t.forgetWorldOf(frame, w) // made for a document already gone: make it again below
	}
	res, err := cdp.Call(ctx, sess, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{
		FrameID: frame, WorldName: worldName, GrantUniveralAccess: new(false),
	})
	if err != nil {
		return 0, fmt.Errorf("isolated world: %w", browserErr(err))
	}
	done := &isolatedWorld{ready: make(chan struct{}), id: res.ExecutionContextID}
	close(done.ready)
	t.mu.Lock()
	t.isolated[frame] = done
	t.mu.Unlock()
	return res.ExecutionContextID, nil
}

// forgetWorld drops a cached world whose context is gone (the frame
// navigated without our listener seeing it, as out-of-process frames do).
func (t *tab) forgetWorld(frame cdp.FrameID) {
	t.mu.Lock()
	delete(t.isolated, frame)
	t.mu.Unlock()
}

// forgetWorldOf drops frame's world only if it is still w (a navigation
// may have put a new one in its place meanwhile).
func (t *tab) forgetWorldOf(frame cdp.FrameID, w *isolatedWorld) {
	t.mu.Lock()
	if t.isolated[frame] == w {
		delete(t.isolated, frame)
	}
	t.mu.Unlock()
}

// evalWorld evaluates an expression in a frame's isolated world and decodes
// its JSON value into out (nil to ignore it).
func (t *tab) evalWorld(ctx context.Context, sess cdp.Session, frame cdp.FrameID, expr string, out any) error {
	for attempt := 0; ; attempt++ {
		id, err := t.world(ctx, sess, frame)
		if err != nil {
			return err
		}
		res, err := cdp.Call(ctx, sess, runtime.Evaluate, runtime.EvaluateParams{
			Expression: expr, ContextID: id, ReturnByValue: new(true), AwaitPromise: new(true),
		})
		if contextGone(err) && attempt == 0 {
			t.forgetWorld(frame)
			continue
		}
		if err != nil {
			return browserErr(err)
		}
		if sess == t.sess {
			t.noteAnswer() // the page's main thread ran it (health.go)
		}
		return decodeResult(res.Result, res.ExceptionDetails, out)
	}
}

func decodeResult(obj *runtime.RemoteObject, exc *runtime.ExceptionDetails, out any) error {
	if exc != nil {
		msg := exc.Text
		if exc.Exception != nil && exc.Exception.Description != "" {
			msg = exc.Exception.Description
		}
		return calls.Errorf(calls.ErrJavaScript, "", "javascript error: %s", firstLine(msg))
	}
	if out == nil || obj == nil || len(obj.Value) == 0 {
		return nil
	}
	return json.Unmarshal(obj.Value, out)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// callOn calls a function with the element as this, in the element's
// frame's isolated world, with JSON arguments, and decodes the result.
// The node's handle in that world is resolved once and kept by the tab
// for the rest of the call (an action calls several functions on its
// element, found anew by some steps: one round trip each instead of two);
// it is released when the call ends (releaseHeld).
func (el *element) callOn(ctx context.Context, fn string, out any, args ...any) error {
	var cargs []*runtime.CallArgument
	for _, a := range args {
		b, err := json.Marshal(a)
		if err != nil {
			return err
		}
		cargs = append(cargs, &runtime.CallArgument{Value: jsonv2.Value(b)})
	}
	// Once each: the world went with its document (made anew), a kept
	// handle went (resolved anew).
	worldAgain, heldAgain := false, false
	for {
		id, err := el.tab.world(ctx, el.sess, el.frame)
		if err != nil {
			return err
		}
		key := heldKey{sess: el.sess, world: id, node: el.node}
		objID, kept := el.tab.heldObject(key)
		if !kept {
			group := callGroup()
			obj, err := cdp.Call(ctx, el.sess, dom.ResolveNode, dom.ResolveNodeParams{
				BackendNodeID: el.node, ExecutionContextID: id, ObjectGroup: group,
			})
			if contextGone(err) && !worldAgain {
				worldAgain = true
				el.tab.forgetWorld(el.frame)
				continue
			}
			if err != nil || obj.Object == nil || obj.Object.ObjectID == "" {
				return el.gone(err)
			}
			objID = obj.Object.ObjectID
			el.tab.hold(key, objID, group)
		}
		res, err := cdp.Call(ctx, el.sess, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
			FunctionDeclaration: fn, ObjectID: objID, Arguments: cargs,
			ReturnByValue: new(true), AwaitPromise: new(true),
		})
		if (contextGone(err) || objectGone(err)) && kept && !heldAgain {
			// A kept handle: the world went with its document, or the
			// handle was released. Resolve the node again.
			heldAgain = true
			el.tab.unhold(key)
			if contextGone(err) {
				el.tab.forgetWorld(el.frame)
			}
			continue
		}
		if err != nil {
			return browserErr(err)
		}
		if el.sess == el.tab.sess {
			el.tab.noteAnswer() // the page's main thread ran it (health.go)
		}
		return decodeResult(res.Result, res.ExceptionDetails, out)
	}
}

// heldKey names a node's handle in an isolated world of a session.
type heldKey struct {
	sess  cdp.Session
	world runtime.ExecutionContextID
	node  cdp.BackendNodeID
}

// held is a handle the tab keeps for the rest of a call, and the object
// group that releases it.
type held struct {
	id    runtime.RemoteObjectID
	group string
}

// heldObject returns the handle kept for key, if any.
func (t *tab) heldObject(key heldKey) (runtime.RemoteObjectID, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	h, ok := t.held[key]
	return h.id, ok
}

// hold keeps a handle for the rest of the call.
func (t *tab) hold(key heldKey, id runtime.RemoteObjectID, group string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.held == nil {
		t.held = map[heldKey]held{}
	}
	if old, ok := t.held[key]; ok {
		releaseLater(t.ctx, key.sess, old.group)
	}
	t.held[key] = held{id: id, group: group}
}

// unhold forgets a handle that no longer works.
func (t *tab) unhold(key heldKey) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.held, key)
}

// releaseHeld releases the handles the call kept, without waiting.
func (t *tab) releaseHeld(ctx context.Context) {
	t.mu.Lock()
	kept := t.held
	t.held = nil
	t.mu.Unlock()
	for key, h := range kept {
		releaseLater(ctx, key.sess, h.group)
	}
}

// cleanupWait bounds a cleanup command sent as a call ends (the release of
// what it read, a key let go): a page a dialog or a script holds never
// answers, and an unbounded cleanup held its call, and the daemon's lane
// of its session, for good (TestReadsEndWhileADialogIsOpen).
const cleanupWait = 2 * time.Second

// cleanupContext is a context for a cleanup after ctx: not canceled with
// it, and bounded by cleanupWait.
func cleanupContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), cleanupWait)
}

// release frees the remote objects of group on sess, as a cleanup.
func release(ctx context.Context, sess cdp.Session, group string) {
	cctx, cancel := cleanupContext(ctx)
	defer cancel()
	_, _ = cdp.Call(cctx, sess, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: group})
}
