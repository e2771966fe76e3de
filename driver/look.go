package driver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/domsnapshot"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/waymark-dev/waymark/apps"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/notice"
	"github.com/waymark-dev/waymark/internal/outline"
	"github.com/waymark-dev/waymark/internal/outline/build"
	"github.com/waymark-dev/waymark/internal/timing"
	"github.com/waymark-dev/waymark/secret"
)

// look builds the outline of the tab: one DOMSnapshot of the page (which
// holds its same-process iframes and open shadow roots) and one of each
// out-of-process iframe, grafted under its <iframe> element. No script of
// the page's runs; one of ours reads, in our world, the fields the page
// shows as invalid (invalid.go).
func (s *Session) look(ctx context.Context, t *tab) (*outline.Node, error) {
	root, _, err := s.lookWithViewport(ctx, t)
	return root, err
}

// lookWithViewport is look that also returns the visible area it measured
// (asked for while the page is captured: one round trip fewer).
func (s *Session) lookWithViewport(ctx context.Context, t *tab) (*outline.Node, outline.Rect, error) {
	type viewport struct {
		vp  outline.Rect
		err error
	}
	vpc := make(chan viewport, 1)
	go func() {
		metrics, err := call(ctx, t, page.GetLayoutMetrics, cdp.Empty{})
		if err != nil {
			vpc <- viewport{err: fmt.Errorf("layout metrics: %w", err)}
			return
		}
		var vp outline.Rect
		if v := metrics.CSSVisualViewport; v != nil {
			vp = outline.Rect{X: v.PageX, Y: v.PageY, W: v.ClientWidth, H: v.ClientHeight}
		}
		vpc <- viewport{vp: vp}
	}()
	var vp outline.Rect
	root, err := s.lookTargetIn(ctx, t, "", func() (outline.Rect, error) {
		got := <-vpc
		vp = got.vp
		return got.vp, got.err
	})
	if err != nil {
		return nil, outline.Rect{}, err
	}
	t.mu.Lock()
	if t.frames == nil {
		t.frames = map[target.ID]*frameTarget{}
	}
	t.mu.Unlock()
	s.graftFrames(ctx, t, root, "", 0)
	return root, vp, nil
}

// maxFrameDepth bounds how deep out-of-process frames nest in a look.
const maxFrameDepth = 5

// graftFrames finds the <iframe> elements of a target's tree that show no
// content (their frame runs in another process), attaches to each frame's
// target and puts its tree under the element. Chromium names the frame of
// an owner element in DOM.describeNode, and that id is the frame target's.
func (s *Session) graftFrames(ctx context.Context, t *tab, tree *outline.Node, tid target.ID, depth int) {
	if depth >= maxFrameDepth {
		return
	}
	var hosts []*outline.Node
	tree.Walk(func(n *outline.Node, _ int) bool {
		if n.Role == "iframe" && len(n.Children) == 0 && n.BackendID != 0 {
			hosts = append(hosts, n)
		}
		return true
	})
	if len(hosts) == 0 {
		return
	}
	sess, err := t.session(tid)
	if err != nil {
		return
	}
	var iframes map[target.ID]bool
	for _, host := range hosts {
		d, err := cdp.Call(ctx, sess, dom.DescribeNode, dom.DescribeNodeParams{BackendNodeID: backendOf(host)})
		if err != nil || d.Node == nil || d.Node.FrameID == "" {
			continue
		}
		if iframes == nil {
			infos, err := chromedp.Targets(s.browser.ctx)
			if err != nil {
				return
			}
			iframes = map[target.ID]bool{}
			for _, in := range infos {
				if in.Type == "iframe" {
					iframes[in.TargetID] = true
				}
			}
		}
		id := target.ID(d.Node.FrameID)
		if !iframes[id] {
			continue // a same-process frame with nothing to show
		}
		if _, err := t.attachFrame(ctx, id, tid); err != nil {
			continue // it went away meanwhile
		}
		sub, err := s.lookTarget(ctx, t, id, outline.Rect{})
		if err != nil {
			continue
		}
		s.graftFrames(ctx, t, sub, id, depth+1)
		// Place the frame's boxes in the top page's space: its viewport
		// starts at the <iframe> element's box, near enough for a summary.
		sub.Offset(host.Box.X, host.Box.Y)
		for _, c := range sub.Children {
			c.Walk(func(n *outline.Node, _ int) bool {
				n.InViewport = host.InViewport
				return true
			})
		}
		host.Children = append(host.Children, sub.Children...)
	}
}

// lookTarget captures one target's documents and builds their tree.
func (s *Session) lookTarget(ctx context.Context, t *tab, id target.ID, vp outline.Rect) (*outline.Node, error) {
	return s.lookTargetIn(ctx, t, id, func() (outline.Rect, error) { return vp, nil })
}

// lookTargetIn is lookTarget with the visible area given once the capture
// is in.
func (s *Session) lookTargetIn(ctx context.Context, t *tab, id target.ID, viewport func() (outline.Rect, error)) (*outline.Node, error) {
	sess, err := t.session(id)
	if err != nil {
		return nil, err
	}
	// The fields the page shows as invalid, read beside the capture (the
	// top document's; a DOMSnapshot does not carry validity).
	invalidC := make(chan map[cdp.BackendNodeID]string, 1)
	if id == "" {
		go func() { invalidC <- t.shownInvalid(ctx) }()
	} else {
		invalidC <- nil
	}
	busy := t.busy() // a capture of a big page holds the renderer (health.go)
	endCDP := timing.Span("cdp captureSnapshot")
	snap, err := cdp.Call(ctx, sess, domsnapshot.CaptureSnapshot, build.Params())
	endCDP()
	busy()
	if err == nil && id == "" {
		t.noteAnswer() // the page's main thread made it (health.go)
	}
	endBeside := timing.Span("capture: wait beside")
	invalid := <-invalidC
	vp, verr := viewport()
	endBeside()
	if err != nil {
		return nil, fmt.Errorf("capture snapshot: %w", browserErr(err))
	}
	if verr != nil {
		return nil, verr
	}
	tid := id
	defer timing.Span("outline build")()
	return build.Outline(&snap, build.Options{
		Viewport: vp,
		Invalid:  invalid,
		Ref: func(frame cdp.FrameID, node cdp.BackendNodeID) string {
			return s.refs.assign(t, tid, frame, node)
		},
	})
}

// Snapshot returns the outline of the current tab.
func (s *Session) Snapshot(ctx context.Context, req calls.SnapshotRequest) (reply *calls.Snapshot, err error) {
	defer s.masked(&reply, &err)
	endEnter := timing.Span("look: enter")
	t, ctx, end, err := s.enter(ctx, usePage)
	endEnter()
	if err != nil {
		return nil, err
	}
	defer end(&err)
	if d := t.pendingDialog(); d != nil {
		// An open dialog blocks the page: say so instead of waiting on it.
		info, err := s.pageInfo(ctx, t)
		if err != nil {
			return nil, err
		}
		text := fmt.Sprintf("[page] %s\n[dialog] %s %q is open — answer it with: waymark dialog accept|dismiss\n", calls.PageName(info.URL, info.Title), d.Type, d.Message)
		snap := &calls.Snapshot{URL: info.URL, Title: info.Title, Text: text}
		if !req.Unseen {
			s.tellDownloads(snap, 2)
		}
		return snap, nil
	}
	// What the look says besides the outline (the page's URL and title,
	// which application it is, the overlays over it) is asked for while
	// the page is captured: the same page, a round trip or three fewer.
	type pageInfo struct {
		info *calls.PageInfo
		err  error
	}
	infoc := make(chan pageInfo, 1)
	go func() {
		info, err := s.pageInfo(ctx, t)
		infoc <- pageInfo{info, err}
	}()
	appc := make(chan *apps.App, 1)
	go func() { appc <- s.detectApp(ctx, t) }()
	overlaysc := make(chan func(), 1)
	go func() { overlaysc <- t.readOverlays(ctx) }()
	endCapture := timing.Span("look: capture")
	root, vp, err := s.lookWithViewport(ctx, t)
	endCapture()
	if err != nil {
		return nil, err
	}
	defer timing.Span("look: render")()
	s.maskSecrets(root)
	show := root
	if req.Scope != "" {
		show, err = s.scope(ctx, t, root, req.Scope)
		if err != nil {
			return nil, err
		}
	}
	// The browser may go away meanwhile (a crash, a closing daemon): say
	// so rather than write a header from nothing.
	pi := <-infoc
	info, err := pi.info, pi.err
	app := <-appc
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.WriteString("[page] " + calls.PageName(info.URL, info.Title))
	if app != nil {
		// The app is named after the URL, which the page cannot spoof
		// with its title; its name is ours or the user's, never the page's.
		if use := app.Use(); use != "" {
			fmt.Fprintf(&buf, " [app: %s: %s]", app.Label(), use)
		} else {
			fmt.Fprintf(&buf, " [app: %s]", app.Label())
		}
	}
	buf.WriteString(t.toolsHeader(ctx))
	buf.WriteByte('\n')
	// Notices first: what stands in the way, recognised, never solved.
	notices := t.notices(root, info)
	for _, n := range notices {
		fmt.Fprintf(&buf, "[%s] %s\n", n.Kind, n.Message)
	}
	ro := outline.RenderOptions{
		Interactive: req.Interactive, Compact: req.Compact, Depth: req.Depth, Full: req.Full || req.Scope != "", Viewport: vp,
	}
	if req.URLs {
		ro.URL = linkURL(info.URL)
	}
	if _, err := outline.Render(&buf, show, ro); err != nil {
		return nil, err
	}
	snap := &calls.Snapshot{URL: info.URL, Title: info.Title, Text: s.maskCellSecrets(buf.String()), Notices: notices}
	if app != nil {
		snap.App = app.Label()
	}
	(<-overlaysc)()
	if req.View {
		snap.View = s.measureView(ctx, t, root)
	}
	s.changesSince(t, req, snap, root)
	root.Walk(func(n *outline.Node, _ int) bool {
		if n.Ref != "" {
			snap.Refs++
			s.refs.describe(n.Ref, nodeLine(n), n.Tag, n.Text, n.Attrs)
		}
		return true
	})
	if req.Tree {
		snap.Tree, err = json.Marshal(show)
		if err != nil {
			return nil, err
		}
	}
	// Downloads go in last: after the changes are worked out, so that a
	// later look with --changes never shows their lines as removed, and
	// once nothing can fail, so that none is marked told and then lost.
	after := 1 // the [page] line, or the line that says what changed
	if !snap.Changed {
		after += len(notices)
	}
	if !req.Unseen {
		s.tellDownloads(snap, after)
	}
	return snap, nil
}

// tellDownloads adds to a look the notices of the session's downloads
// nobody has been told of (download.go), and of the tabs its pages opened
// over MaxTabs (newtabs.go), in Notices and as lines of Text after its
// first `after` lines.
func (s *Session) tellDownloads(snap *calls.Snapshot, after int) {
	tellNotices(snap, append(s.downloads.Notices(), s.browser.tabsRefusedNotice(s.bcid)...), after)
}

// tellNotices writes notices dls into the look after its first after lines.
func tellNotices(snap *calls.Snapshot, dls []calls.Notice, after int) {
	if len(dls) == 0 {
		return
	}
	var lines strings.Builder
	for _, n := range dls {
		fmt.Fprintf(&lines, "[%s] %s\n", n.Kind, n.Message)
	}
	i := 0
	for ; after > 0 && i < len(snap.Text); after-- {
		j := strings.IndexByte(snap.Text[i:], '\n')
		if j < 0 { // a last line with no newline: end it first
			snap.Text += "\n"
			i = len(snap.Text)
			break
		}
		i += j + 1
	}
	snap.Text = snap.Text[:i] + lines.String() + snap.Text[i:]
	snap.Notices = append(snap.Notices, dls...)
}

// scope finds the subtree a scope names (SnapshotRequest.Scope): a ref or
// a CSS selector.
func (s *Session) scope(ctx context.Context, t *tab, root *outline.Node, scope string) (*outline.Node, error) {
	if ref, ok := normalizeRef(scope); ok {
		var found *outline.Node
		root.Walk(func(n *outline.Node, _ int) bool {
			if n.Ref == ref {
				found = n
			}
			return found == nil
		})
		if found == nil {
			if _, known := s.refs.lookup(ref); known {
				return nil, staleRef(ref, "")
			}
			return nil, unknownRef(ref)
		}
		return found, nil
	}
	css := strings.TrimPrefix(scope, "css=")
	ids, err := s.queryCSS(ctx, t, css)
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		// "the scope", not the CLI's --scope: every front reads this (an
		// MCP client's scope argument, a program's SnapshotRequest.Scope).
		return nil, calls.Errorf(calls.ErrNoMatch, "check the selector, or scope by a ref from "+calls.Cmd("snapshot"), "no element matches the scope %q", css)
	}
	found := findAnyBackend(root, ids[0])
	if found == nil {
		return nil, calls.Errorf(calls.ErrNoMatch, "the element may be hidden; run "+calls.Cmd("snapshot")+" without a scope", "the element %q matches is not in the outline", css)
	}
	return found, nil
}

func findAnyBackend(root *outline.Node, id cdp.BackendNodeID) *outline.Node {
	var found *outline.Node
	root.Walk(func(n *outline.Node, _ int) bool {
		if found == nil && backendOf(n) == id {
			found = n
		}
		return found == nil
	})
	return found
}

// nodeLine is a short description of a node, in the outline's words.
func nodeLine(n *outline.Node) string {
	var b strings.Builder
	b.WriteString(n.Role)
	if n.Name != "" {
		fmt.Fprintf(&b, " %q", clip(n.Name, 60))
	}
	if n.Ref != "" {
		fmt.Fprintf(&b, " [ref=%s]", n.Ref)
	}
	return b.String()
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// notices recognises what stands in the way on the tab's document.
func (t *tab) notices(root *outline.Node, info *calls.PageInfo) []calls.Notice {
	t.mu.Lock()
	in := notice.Input{Status: t.status, Headers: t.headers, URL: info.URL, Title: info.Title, Outline: root}
	frames := append(t.frameNotices(), t.lateNotices()...)
	t.mu.Unlock()
	return append(notice.Detect(in), frames...)
}

// changesSince keeps the tab's last look per set of options and, when the
// caller asks for changes, replaces the outline: on the same page, by the
// lines that changed since, if that is shorter (DESIGN: a look of the same
// page carries the changes); on a new page of the last page's origin, by
// the outline whose regions that read as the last page's (banner,
// navigation, footer) are one line each and keep the refs the caller read
// there (outline.Carry; root's refs are renamed to match). The header
// keeps the whole URL: it is where the reader learns which site the tab
// is on (a bare path would leave a title that reads "Sign in —
// https://bank.example/login" the only site on the line, quoted or not).
func (s *Session) changesSince(t *tab, req calls.SnapshotRequest, snap *calls.Snapshot, root *outline.Node) {
	key := fmt.Sprintf("%v|%v|%s|%d|%v|%v|%s", req.Interactive, req.Compact, req.Scope, req.Depth, req.Full, req.URLs, req.Reader)
	if req.Unseen {
		// Nobody reads it: the next look is compared with what the
		// caller saw last, not with this.
		return
	}
	t.mu.Lock()
	prev, ok := t.looks[key]
	t.lookSeq++
	seq := t.lookSeq
	filledBy := t.filled[req.Reader]
	delete(t.filled, req.Reader) // a fill is its reader's news until it looks
	t.mu.Unlock()
	filled := func(ref, value string) bool {
		return filledBy != nil && holdsFilled(root, filledBy, ref, value)
	}
	full := snap.Text
	defer func() {
		t.mu.Lock()
		if t.looks == nil {
			t.looks = map[string]look{}
		}
		if _, known := t.looks[key]; !known && len(t.looks) >= maxLooks {
			// Readers come and go (MCP clients over HTTP): the one
			// read longest ago gets a whole outline next time.
			oldest := key
			for k, l := range t.looks {
				if oldest == key || l.seq < t.looks[oldest].seq {
					oldest = k
				}
			}
			delete(t.looks, oldest)
		}
		t.looks[key] = look{url: snap.URL, text: full, seq: seq}
		t.mu.Unlock()
	}()
	if !req.Changes || !ok {
		return
	}
	if prev.url != snap.URL {
		if prev.seq != seq-1 {
			// A look with other options came between: the caller read
			// the refs of this page's regions there last, not in prev.
			return
		}
		if !sameOrigin(prev.url, snap.URL) {
			// Another site that copies the last one's banner (a
			// look-alike the tab was sent to) is not "unchanged", and
			// the refs the caller read on the last site do not act on
			// its elements.
			return
		}
		renamed := map[string]string{}
		var nodes map[string]*outline.Node // root's elements by ref, made at the first region offered
		node := func(ref string) *outline.Node {
			if nodes == nil {
				nodes = map[string]*outline.Node{}
				root.Walk(func(n *outline.Node, _ int) bool {
					if n.Ref != "" {
						nodes[n.Ref] = n
					}
					return true
				})
			}
			return nodes[ref]
		}
		full, snap.Text = outline.Carry(prev.text, snap.Text, func(m map[string]string) bool {
			if !s.refs.carry(t, m, node) {
				return false
			}
			maps.Copy(renamed, m)
			return true
		})
		if len(renamed) > 0 {
			root.Walk(func(n *outline.Node, _ int) bool {
				if old, ok := renamed[n.Ref]; ok {
					n.Ref = old
				}
				return true
			})
		}
		return
	}
	d, dropped, fits := outline.DiffFilled(prev.text, snap.Text, filled)
	switch {
	case !fits:
		return
	// The page is the one of the last look (same URL), so its header is
	// not repeated: one line says what the lines below are.
	case d == "" && dropped > 0:
		snap.Text = "[no changes since your last look besides what you filled]\n"
	case d == "":
		snap.Text = "[no changes since your last look]\n"
	case len(d) < len(snap.Text):
		snap.Text = "[changes since your last look]\n" + d + "\n" // "~": the element of that ref now reads so (snapshot --help)
	default:
		return
	}
	snap.Changed = true
}

// maxLooks bounds the looks a tab keeps for changes: one per set of
// options and reader.
const maxLooks = 32

// sameOrigin reports whether two page addresses are on one origin
// (scheme, host and port).
func sameOrigin(a, b string) bool {
	u, err1 := url.Parse(a)
	v, err2 := url.Parse(b)
	return err1 == nil && err2 == nil && u.Host != "" && u.Scheme == v.Scheme && u.Host == v.Host
}

// forgetLooks makes the tab's next look whole: an open starts a new
// reading of the tab (often a new task, or another agent on the session),
// whose reader may never have read the looks before it, so a look after it
// says neither "changes since your last look" nor "(unchanged)".
func (t *tab) forgetLooks() {
	t.mu.Lock()
	t.looks = nil
	t.mu.Unlock()
}

// look is a tab's last outline for one set of options.
type look struct {
	url, text string
	seq       int // its place among the tab's looks (tab.lookSeq)
}

// noteFilled keeps the value reader's fill puts into el until that
// reader's next look seen, which leaves out the line of a field that holds
// it (changesSince). Another reader's look does not: it did not fill it.
func (t *tab) noteFilled(el *element, reader, value string) {
	if el == nil || el.tab != t {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.filled == nil {
		t.filled = map[string]map[cdp.BackendNodeID]string{}
	}
	if t.filled[reader] == nil {
		if len(t.filled) >= maxLooks {
			clear(t.filled) // readers come and go: at worst a line too many
		}
		t.filled[reader] = map[cdp.BackendNodeID]string{}
	}
	t.filled[reader][el.node] = value
}

// holdsFilled reports whether the element of ref in root holds the value
// filled into it: the value as the look shows it, or the mask of a field
// whose value is not shown (a password, a secret) when something was
// filled.
func holdsFilled(root *outline.Node, filled map[cdp.BackendNodeID]string, ref, shown string) bool {
	var n *outline.Node
	root.Walk(func(m *outline.Node, _ int) bool {
		if m.Ref == ref {
			n = m
		}
		return n == nil
	})
	if n == nil {
		return false
	}
	v, ok := filled[backendOf(n)]
	if !ok || v == "" {
		return false
	}
	return shown == outline.Truncate(v, 100) || shown == secret.Masked
}
