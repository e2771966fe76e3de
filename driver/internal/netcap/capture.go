package netcap

import (
	"context"
	"maps"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"

	"github.com/waymark-dev/waymark/capture"
)

// Default bounds of a capture.
const (
	capMaxExchanges = 2000
	capMaxBody      = 1 << 20
	capMaxTotal     = 32 << 20
	capMaxMessages  = 2000
	capMaxState     = 256 << 10 // one state value
	capBodyFetches  = 4         // body fetches at once
	capStopWait     = 5 * time.Second
	capMaxURL       = 8 << 10
)

type Capture struct {
	key                          []byte // the markers' key, never saved
	maxEx, maxBody, maxTotal     int
	started                      time.Time
	ctx                          context.Context // bounds the body fetches and state reads; ended at stop
	cancel                       context.CancelFunc
	wg                           sync.WaitGroup
	sem                          chan struct{}
	mu                           sync.Mutex
	exchanges                    []*capture.Exchange
	live                         map[capKey]*capEx // by CDP session and request id
	extraReq                     map[capKey][]capture.Header
	extraResp                    map[capKey][]capture.Header
	messages                     []capture.Message
	state                        map[string]capture.StateValue // by page and source
	cached                       map[string][]capture.Exchange // the application's own caches, by origin (netcapture_cached.go)
	cachedDropped                map[string]int                // what reading them left out, by origin
	dropped, total, seq, stopped int
}

type capKey struct {
	sess cdp.Session
	id   network.RequestID
}

// capEx is an exchange in flight.
type capEx struct {
	ex      *capture.Exchange
	hops    int
	decoded int64 // body bytes received so far
	start   time.Time
}

// finish ends the body fetches, waiting a little for those under way.
func (c *Capture) Finish() {
	// Stopped first, under mu: no fetch is started (wg.Add) after this,
	// so the Wait below cannot race an Add.
	c.mu.Lock()
	c.stopped = 1
	c.mu.Unlock()
	done := make(chan struct{})
	go func() { c.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(capStopWait):
	}
	c.cancel()
}

// file returns a copy of what was captured, not redacted.
func (c *Capture) File(session string) *capture.File {
	c.mu.Lock()
	defer c.mu.Unlock()
	f := &capture.File{Format: capture.Format, Session: session, Started: c.started, Stopped: time.Now(),
		Exchanges: make([]capture.Exchange, len(c.exchanges)), Messages: append([]capture.Message(nil), c.messages...), Dropped: c.dropped}
	for i, e := range c.exchanges {
		f.Exchanges[i] = *e
		f.Exchanges[i].RequestHeaders = append([]capture.Header(nil), e.RequestHeaders...)
		f.Exchanges[i].ResponseHeaders = append([]capture.Header(nil), e.ResponseHeaders...)
	}
	for _, o := range slices.Sorted(maps.Keys(c.cached)) {
		for _, e := range c.cached[o] {
			e.RequestHeaders = slices.Clone(e.RequestHeaders)
			e.ResponseHeaders = slices.Clone(e.ResponseHeaders)
			f.Cached = append(f.Cached, e)
		}
		f.Dropped += c.cachedDropped[o]
	}
	keys := make([]string, 0, len(c.state))
	for k := range c.state {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		f.State = append(f.State, c.state[k])
	}
	return f
}
