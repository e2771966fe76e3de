package daemon

import (
	"context"
	"sync"
)

// lanes orders the requests of each session: one at a time, in the order
// they arrived. Each request takes a ticket when it is read off its
// connection; a ticket's turn comes when the ticket before it is done.
type lanes struct {
	mu    sync.Mutex // guards byKey
	byKey map[string]*lane
}

type lane struct {
	tail chan struct{} // closed when the last ticket's turn ends; nil: none
	n    int           // tickets not yet done
}

type ticket struct {
	l    *lanes
	key  string
	prev chan struct{} // the turn before ours; nil: ours is now
	mine chan struct{} // closed when our turn ends
	held bool
}

// join takes the next ticket of the session's lane.
func (ls *lanes) join(key string) *ticket {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.byKey == nil {
		ls.byKey = make(map[string]*lane)
	}
	l := ls.byKey[key]
	if l == nil {
		l = new(lane)
		ls.byKey[key] = l
	}
	t := &ticket{l: ls, key: key, prev: l.tail, mine: make(chan struct{})}
	l.tail = t.mine
	l.n++
	return t
}

// wait blocks until the ticket's turn or until ctx is done.
func (t *ticket) wait(ctx context.Context) error {
	if t.prev == nil {
		t.held = true
		return nil
	}
	select {
	case <-t.prev:
		t.held = true
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// done ends the ticket's turn, or gives it up if it never came.
func (t *ticket) done() {
	if t.held {
		close(t.mine)
	} else {
		// Our turn has not come, so the next ticket must still wait for
		// the one before us. This goroutine exits when that turn ends,
		// which it does: every ticket's done is called.
		go func() {
			<-t.prev
			close(t.mine)
		}()
	}
	t.l.mu.Lock()
	defer t.l.mu.Unlock()
	l := t.l.byKey[t.key]
	if l.n--; l.n == 0 {
		delete(t.l.byKey, t.key)
	}
}
