package netcap

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cachestorage"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/indexeddb"
	"github.com/chromedp/cdproto/runtime"
	"github.com/waymark-dev/waymark/capture"
)

// The answers an application cached for itself (issue 31, item 5): at
// capture stop, each tab's origin's Cache Storage entries and IndexedDB
// object stores go into the capture's Cached, for api learn to rank beside
// the network's answers. They are read through DevTools' own domains
// (CacheStorage, IndexedDB, Runtime.getProperties on the records the
// IndexedDB agent hands back), on the tab's own target: no script runs in
// any world of the page, no getter of the page's is called, and a session
// sees only its own browser context's storage. Reading is bounded: caches,
// entries, stores and records by count, bodies and records by bytes, the
// whole by the stop's deadline; what is left out is counted in Dropped.

// Bounds of reading an origin's caches.
const (
	cachedMaxCaches  = 16
	cachedMaxEntries = 100 // a cache's entries read
	cachedMaxStores  = 32  // object stores, over every database
	cachedMaxRecords = 200 // a store's records read
	cachedMaxBytes   = 4 << 20
	cachedMaxNodes   = 20000 // values walked in one store
	cachedMaxDepth   = 8
	// idbObjectGroup is the group the IndexedDB agent keeps the records
	// it hands back in; released once read.
	idbObjectGroup = "indexeddb"
)

// readCached reads the Cache Storage and IndexedDB of t's origin into the
// capture, once an origin a stop.
func (c *Capture) ReadCached(ctx context.Context, t Tab, seen map[string]bool) {
	_, doc := t.Doc()
	u, err := url.Parse(doc)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return
	}
	origin := u.Scheme + "://" + u.Host
	if seen[origin] {
		return
	}
	seen[origin] = true
	budget := min(cachedMaxBytes, c.maxBody*4)
	var out []capture.Exchange
	dropped := 0
	add := func(e capture.Exchange) {
		if len(e.ResponseBody) > c.maxBody || len(e.ResponseBody) > budget {
			dropped++
			return
		}
		budget -= len(e.ResponseBody)
		out = append(out, e)
	}
	readCacheStorage(ctx, t, origin, doc, add, &dropped)
	readIndexedDB(ctx, t, origin, u.Host, doc, add, &dropped)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cached == nil {
		c.cached, c.cachedDropped = map[string][]capture.Exchange{}, map[string]int{}
	}
	c.cached[origin] = out
	// Replaced, not added to, when a stop reads again (record the capture
	// so far, then stop): Dropped counts what the last read left out.
	c.cachedDropped[origin] = dropped
}

// readCacheStorage reads the origin's caches: each entry's request and
// its answer's body, when it is text.
func readCacheStorage(ctx context.Context, t Tab, origin, page string, add func(capture.Exchange), dropped *int) {
	names, err := cdp.Call(ctx, t.Target(), cachestorage.RequestCacheNames, cachestorage.RequestCacheNamesParams{SecurityOrigin: origin})
	if err != nil {
		return
	}
	for i, ch := range names.Caches {
		if i == cachedMaxCaches {
			*dropped += len(names.Caches) - i
			return
		}
		ents, err := cdp.Call(ctx, t.Target(), cachestorage.RequestEntries, cachestorage.RequestEntriesParams{CacheID: ch.CacheID, PageSize: cachedMaxEntries})
		if err != nil {
			continue
		}
		if n := int(ents.ReturnCount) - len(ents.CacheDataEntries); n > 0 {
			*dropped += n
		}
		for _, e := range ents.CacheDataEntries {
			x := capture.Exchange{ID: "cache-storage:" + ch.CacheName, Kind: capture.KindCacheStorage, Method: strings.ToUpper(e.RequestMethod),
				URL: e.RequestURL, Page: page, Status: int(e.ResponseStatus), StatusText: e.ResponseStatusText,
				Sent: time.Unix(0, int64(e.ResponseTime*float64(time.Second)))}
			for _, h := range e.RequestHeaders {
				x.RequestHeaders = append(x.RequestHeaders, capture.Header{Name: h.Name, Value: h.Value})
			}
			for _, h := range e.ResponseHeaders {
				x.ResponseHeaders = append(x.ResponseHeaders, capture.Header{Name: h.Name, Value: h.Value})
				if strings.EqualFold(h.Name, "content-type") {
					x.MimeType = strings.TrimSpace(strings.Split(h.Value, ";")[0])
				}
			}
			if x.Method == "" {
				x.Method = "GET"
			}
			if !textual(x.MimeType) {
				x.BodyOmitted = "binary"
				add(x)
				continue
			}
			hs := make([]*cachestorage.Header, 0, len(e.RequestHeaders))
			hs = append(hs, e.RequestHeaders...)
			body, err := cdp.Call(ctx, t.Target(), cachestorage.RequestCachedResponse, cachestorage.RequestCachedResponseParams{CacheID: ch.CacheID, RequestURL: e.RequestURL, RequestHeaders: hs})
			if err != nil || body.Response == nil {
				x.BodyOmitted = "not available"
			} else {
				x.ResponseBody = string(body.Response.Body)
			}
			add(x)
		}
	}
}

// readIndexedDB reads each object store of the origin's databases as a
// JSON array of its records, walked through Runtime.getProperties: own
// data properties only, so no getter of the page's runs.
func readIndexedDB(ctx context.Context, t Tab, origin, host, page string, add func(capture.Exchange), dropped *int) {
	names, err := cdp.Call(ctx, t.Target(), indexeddb.RequestDatabaseNames, indexeddb.RequestDatabaseNamesParams{SecurityOrigin: origin})
	if err != nil || len(names.DatabaseNames) == 0 {
		return
	}
	defer func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer cancel()
		_, _ = cdp.Call(rctx, t.Target(), runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: idbObjectGroup})
	}()
	stores := 0
	for _, db := range names.DatabaseNames {
		d, err := cdp.Call(ctx, t.Target(), indexeddb.RequestDatabase, indexeddb.RequestDatabaseParams{SecurityOrigin: origin, DatabaseName: db})
		if err != nil || d.DatabaseWithObjectStores == nil {
			continue
		}
		for _, st := range d.DatabaseWithObjectStores.ObjectStores {
			if stores == cachedMaxStores {
				*dropped++
				continue
			}
			stores++
			data, err := cdp.Call(ctx, t.Target(), indexeddb.RequestData, indexeddb.RequestDataParams{SecurityOrigin: origin, DatabaseName: db, ObjectStoreName: st.Name, PageSize: cachedMaxRecords})
			if err != nil {
				continue
			}
			if data.HasMore {
				*dropped++
			}
			w := &walker{ctx: ctx, t: t, left: cachedMaxNodes}
			records := make([]any, 0, len(data.ObjectStoreDataEntries))
			for _, e := range data.ObjectStoreDataEntries {
				records = append(records, w.value(e.Value, 0))
			}
			if w.left <= 0 {
				*dropped++
			}
			b, err := json.Marshal(records)
			if err != nil {
				continue
			}
			where := db + "/" + st.Name
			add(capture.Exchange{ID: "indexeddb:" + where, Kind: capture.KindIndexedDB, Method: "GET",
				URL: "indexeddb://" + host + "/" + url.PathEscape(db) + "/" + url.PathEscape(st.Name), Page: page,
				Status: 200, MimeType: "application/json", ResponseBody: string(b), Sent: time.Now()})
		}
	}
}

// walker turns a record the IndexedDB agent handed back into a JSON
// value, property by property, within a count of values.
type walker struct {
	ctx  context.Context
	t    Tab
	left int
}

func (w *walker) value(o *runtime.RemoteObject, depth int) any {
	w.left--
	if o == nil || w.left <= 0 {
		return nil
	}
	switch o.Type {
	case runtime.RemoteObjectTypeString, runtime.RemoteObjectTypeNumber, runtime.RemoteObjectTypeBoolean:
		var v any
		if json.Unmarshal([]byte(o.Value), &v) == nil {
			return v
		}
		return o.Description
	case runtime.RemoteObjectTypeBigint:
		return strings.TrimSuffix(string(o.UnserializableValue), "n")
	case runtime.RemoteObjectTypeObject:
	default:
		return nil
	}
	switch o.Subtype {
	case runtime.RemoteObjectSubtypeNull:
		return nil
	case "", runtime.RemoteObjectSubtypeArray:
	default: // a date, a map, a typed array: as DevTools names it
		return o.Description
	}
	if o.ObjectID == "" || depth >= cachedMaxDepth {
		return nil
	}
	props, err := cdp.Call(w.ctx, w.t.Target(), runtime.GetProperties, runtime.GetPropertiesParams{ObjectID: o.ObjectID, OwnProperties: new(true)})
	if err != nil {
		return nil
	}
	if o.Subtype == runtime.RemoteObjectSubtypeArray {
		var arr []any
		for _, p := range props.Result {
			if i, err := strconv.Atoi(p.Name); err == nil && i >= 0 && p.Value != nil {
				for len(arr) <= i && len(arr) < cachedMaxNodes {
					arr = append(arr, nil)
				}
				if i < len(arr) {
					arr[i] = w.value(p.Value, depth+1)
				}
			}
		}
		if arr == nil {
			arr = []any{}
		}
		return arr
	}
	m := map[string]any{}
	for _, p := range props.Result {
		// Own, enumerable data properties: what JSON.stringify would
		// write, read without running a getter.
		if !p.Enumerable || p.Value == nil || p.Symbol != nil {
			continue
		}
		m[p.Name] = w.value(p.Value, depth+1)
	}
	return m
}
