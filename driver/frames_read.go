package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/elem"
)

// Reading every frame of a tab (a form's read, issue 17): one script per
// frame, in our isolated world, in parallel, that hands back its JSON and
// the nodes it names, which become elements. Out-of-process frames are
// read through their own targets (frames.go). A frame that cannot be read
// is named in the errors, never taken as empty. What the script is and
// what its answer means are the room's (internal/form).

// describeAtOnce bounds the node lookups of a read in flight at once.
const describeAtOnce = 16

// readGroup names the object groups a read's remote objects live in.
const readGroup = "waymark-form"

// frameRef is one frame to read: the target whose session reaches it.
type frameRef struct {
	tid   target.ID
	sess  cdp.Session
	frame cdp.FrameID
	url   string
}

// listFrames lists the tab's frames, the page first, each with the
// session that reaches it: out-of-process frames are attached to (their
// subframes in the same process come with them), each in busy at most.
func (s *Session) listFrames(ctx context.Context, t *tab, busy time.Duration) ([]frameRef, []calls.FrameError) {
	var out []frameRef
	var errs []calls.FrameError
	t.mu.Lock()
	if t.frames == nil {
		t.frames = map[target.ID]*frameTarget{}
	}
	t.mu.Unlock()
	// The out-of-process frames of this tab, with their parents.
	oop := map[target.ID]target.ID{}
	s.browser.mu.Lock()
	for id, p := range s.browser.frameParent {
		root := p
		for range maxFrameDepth + 1 {
			up, ok := s.browser.frameParent[root]
			if !ok {
				break
			}
			root = up
		}
		if root == t.id {
			oop[id] = p
		}
	}
	s.browser.mu.Unlock()
	urls := map[target.ID]string{}
	named := func(id target.ID) string {
		if u := urls[id]; u != "" {
			return u
		}
		if in, err := chromedp.CallBrowser(s.browser.ctx, target.GetTargetInfo, target.GetTargetInfoParams{TargetID: id}); err == nil && in.TargetInfo != nil {
			return shownURL(in.TargetInfo.URL)
		}
		return string(id)
	}
	var walk func(tid target.ID, sess cdp.Session, ft *page.FrameTree)
	walk = func(tid target.ID, sess cdp.Session, ft *page.FrameTree) {
		if ft == nil || ft.Frame == nil {
			return
		}
		id := target.ID(ft.Frame.ID)
		if _, other := oop[id]; other && id != tid {
			// Read through its own target; its parent knows its URL.
			urls[id] = ft.Frame.URL
		} else {
			out = append(out, frameRef{tid: tid, sess: sess, frame: ft.Frame.ID, url: ft.Frame.URL + ft.Frame.URLFragment})
		}
		for _, c := range ft.ChildFrames {
			walk(tid, sess, c)
		}
	}
	tree, err := cdp.Call(ctx, t.sess, page.GetFrameTree, cdp.Empty{})
	if err != nil {
		return nil, []calls.FrameError{{Frame: t.url(), Error: browserErr(err).Error()}}
	}
	walk("", t.sess, tree.FrameTree)
	// Parents before children, so a frame's parent is attached first.
	var ids []target.ID
	for id := range oop {
		ids = append(ids, id)
	}
	for attached := map[target.ID]bool{t.id: true, "": true}; len(ids) > 0; {
		var next []target.ID
		for _, id := range ids {
			p := oop[id]
			if !attached[p] && oop[p] != "" {
				next = append(next, id)
				continue
			}
			attached[id] = true
			actx, cancel := context.WithTimeout(ctx, busy)
			ft, err := t.attachFrame(actx, id, p)
			if err != nil {
				msg := "cannot attach to the frame: " + browserErr(err).Error()
				if actx.Err() != nil && ctx.Err() == nil {
					msg = fmt.Sprintf("the frame did not answer in %s (its page is busy)", busy)
				}
				cancel()
				errs = append(errs, calls.FrameError{Frame: named(id), Error: msg})
				continue
			}
			sub, err := cdp.Call(actx, ft.sess, page.GetFrameTree, cdp.Empty{})
			cancel()
			if err != nil {
				errs = append(errs, calls.FrameError{Frame: named(id), Error: browserErr(err).Error()})
				continue
			}
			walk(id, ft.sess, sub.FrameTree)
		}
		if len(next) == len(ids) {
			for _, id := range next {
				errs = append(errs, calls.FrameError{Frame: named(id), Error: "its parent frame is not on the page"})
			}
			break
		}
		ids = next
	}
	return out, errs
}

// readFrames runs expr in every frame of the tab, the frames in parallel
// (the door a room reads a page's frames through: surface.go).
func (s *Session) readFrames(ctx context.Context, t *tab, expr string, busy time.Duration) ([]elem.FrameRead, []calls.FrameError) {
	frames, errs := s.listFrames(ctx, t, busy)
	out := make([]elem.FrameRead, len(frames))
	var wg sync.WaitGroup
	for i, f := range frames {
		wg.Go(func() {
			r := &out[i]
			r.URL, r.Frame = f.url, string(f.frame)
			r.JSON, r.Nodes, r.Err = readFrame(ctx, t, f, expr, busy)
		})
	}
	wg.Wait()
	return out, errs
}

// readFrame runs expr, which returns an array of a JSON string and nodes,
// in one frame's isolated world, and returns the JSON and the nodes as
// elements (nil where one went away).
func readFrame(ctx context.Context, t *tab, f frameRef, expr string, busy time.Duration) (string, []elem.Element, error) {
	var res runtime.EvaluateResult
	// A group of the frame's own: frames of one process are read at once
	// on one session, whose groups they share, and the first read to end
	// would release the others' nodes.
	group := readGroup + "-" + string(f.frame)
	// The frame's page must answer the read in busy: one busy in a script
	// never does. What follows (its nodes' ids) is the browser's work,
	// bounded by ctx alone.
	ectx, cancel := context.WithTimeout(ctx, busy)
	defer cancel()
	for attempt := 0; ; attempt++ {
		id, err := t.world(ectx, f.sess, f.frame)
		if err == nil {
			res, err = cdp.Call(ectx, f.sess, runtime.Evaluate, runtime.EvaluateParams{
				Expression: expr, ContextID: id, ObjectGroup: group,
			})
		}
		if contextGone(err) && attempt == 0 {
			t.forgetWorld(f.frame)
			continue
		}
		if err != nil && ectx.Err() != nil && ctx.Err() == nil {
			return "", nil, fmt.Errorf("the frame did not answer in %s (its page is busy)", busy)
		}
		if err != nil {
			return "", nil, browserErr(err)
		}
		break
	}
	defer release(ctx, f.sess, group)
	if err := decodeResult(nil, res.ExceptionDetails, nil); err != nil {
		return "", nil, err
	}
	if res.Result == nil || res.Result.ObjectID == "" {
		return "", nil, fmt.Errorf("the frame's read returned nothing")
	}
	props, err := cdp.Call(ctx, f.sess, runtime.GetProperties, runtime.GetPropertiesParams{ObjectID: res.Result.ObjectID, OwnProperties: new(true)})
	if err != nil {
		return "", nil, browserErr(err)
	}
	var head string
	objs := map[int]runtime.RemoteObjectID{}
	for _, p := range props.Result {
		var i int
		if _, err := fmt.Sscanf(p.Name, "%d", &i); err != nil || p.Value == nil {
			continue
		}
		if i == 0 {
			if err := json.Unmarshal(p.Value.Value, &head); err != nil {
				return "", nil, fmt.Errorf("the frame's read: %w", err)
			}
			continue
		}
		objs[i-1] = p.Value.ObjectID
	}
	// The nodes' backend ids, asked for several at a time.
	nodes := make([]cdp.BackendNodeID, len(objs))
	var wg sync.WaitGroup
	slots := make(chan struct{}, describeAtOnce)
	for i, obj := range objs {
		if i < 0 || i >= len(nodes) {
			continue
		}
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			if d, err := cdp.Call(ctx, f.sess, dom.DescribeNode, dom.DescribeNodeParams{ObjectID: obj}); err == nil && d.Node != nil {
				nodes[i] = d.Node.BackendNodeID
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return "", nil, err // a read cut short is no read: never fewer nodes
	}
	els := make([]elem.Element, len(nodes))
	for i, n := range nodes {
		if n != 0 {
			els[i] = &element{tab: t, tid: f.tid, sess: f.sess, frame: f.frame, node: n}
		}
	}
	return head, els, nil
}
