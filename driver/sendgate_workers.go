package driver

import (
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/target"
)

// Sends from workers pass the submit gate like the page's own (issue 27).
// A page's script can hand a send to a worker: a service worker or a
// shared worker told by postMessage to POST, a dedicated Worker in an
// out-of-process frame. Their requests are not the tab's: the tab's
// Fetch domain never sees them, and the browser target's (newtabs.go),
// which pauses every request while a step's sends are watched, names the
// worker's target as the request's frame. So the browser keeps the worker
// targets it discovers, and a request paused from one goes to the same
// decision as the page's (tab.holdSend) of the tab the worker belongs to:
// a dedicated worker's page or frame, up its parents; for a service or
// shared worker, which serves every tab of its origin and belongs to
// none, each watched tab of the browser context it runs in (a step's
// sends are watched for its whole tab, so a worker it reaches is judged
// by it, whichever tab of the session messaged the worker).

// workerTarget is a worker the browser runs.
type workerTarget struct {
	// parent is the page, frame or worker that started a dedicated
	// worker; "" for a service or shared worker.
	parent target.ID
	bcid   cdp.BrowserContextID
}

// isWorker reports whether a target type is a worker's.
func isWorker(typ string) bool {
	return typ == "worker" || typ == "service_worker" || typ == "shared_worker"
}

// noteWorker keeps a worker target the browser announced. Called with
// b.mu held, in chromedp's read loop.
func (b *Browser) noteWorker(in *target.Info) {
	if b.workers == nil {
		b.workers = map[target.ID]workerTarget{}
	}
	w := workerTarget{bcid: in.BrowserContextID}
	if in.Type == "worker" {
		w.parent = in.ParentID
	}
	b.workers[in.TargetID] = w
}

// holdWorkerSend decides a request paused by the browser target whose
// frame is a worker's target: it returns the tab whose watched step holds
// it (tab.holdSend recorded it there), or nil to let it go.
func (b *Browser) holdWorkerSend(ev *fetch.EventRequestPaused) *tab {
	for _, t := range b.workerTabs(target.ID(ev.FrameID)) {
		if t.holdSend(ev, false) {
			return t
		}
	}
	return nil
}

// workerTabs are the tabs a worker's request is judged by: a dedicated
// worker's tab, up its parents (workers, out-of-process frames); every tab
// of the browser context of a service or shared worker. None when id is
// not a worker's.
func (b *Browser) workerTabs(id target.ID) []*tab {
	b.mu.Lock()
	w, ok := b.workers[id]
	for range maxFrameDepth + 1 {
		if !ok || w.parent == "" {
			break
		}
		id = w.parent
		var up bool
		if w, up = b.workers[id]; !up {
			// A page or a frame: the worker's tab.
			b.mu.Unlock()
			if t := b.frameTab(cdp.FrameID(id)); t != nil {
				return []*tab{t}
			}
			if t := b.tabByID(id); t != nil {
				return []*tab{t}
			}
			return nil
		}
	}
	b.mu.Unlock()
	if !ok || w.parent != "" {
		return nil
	}
	var out []*tab
	for _, s := range b.Sessions() {
		if s.bcid != w.bcid {
			continue
		}
		s.mu.Lock()
		out = append(out, s.tabs...)
		s.mu.Unlock()
	}
	return out
}
