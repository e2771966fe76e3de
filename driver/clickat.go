package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"

	"github.com/waymark-dev/waymark/calls"
)

// jsControlAt returns the control an element at a point belongs to: the
// element itself or its nearest ancestor (across shadow roots) that is a
// control a person clicks, or null. An icon inside a button gives the
// button; a canvas, a map's tiles or a picture in no control give null,
// and are pressed at the point itself.
const jsControlAt = `function(){
  const sel = 'a[href],button,input,select,textarea,summary,label,option,[role=button],[role=link],[role=checkbox],[role=radio],[role=switch],[role=tab],[role=menuitem],[role=menuitemcheckbox],[role=menuitemradio],[role=option],[role=combobox],[role=textbox],[role=searchbox],[role=slider],[role=spinbutton],[role=treeitem],[contenteditable=""],[contenteditable=true]';
  let e = this.nodeType === 1 ? this : this.parentElement;
  while (e) {
    if (e.matches(sel)) return e;
    if (e.parentElement) { e = e.parentElement; continue; }
    const root = e.getRootNode();
    e = root instanceof ShadowRoot ? root.host : null;
  }
  return null;
}`

// planClickAt plans a click-at: the point must be in the view and in the
// tab's own document (a frame's controls are clicked by their refs). The
// control under it gets the ordinary click, through the same checks and
// submit gate as `click`; with none, the press goes exactly to the point.
// pressed is set to what was pressed, for the outcome; shown as plan's.
func (s *Session) planClickAt(ctx context.Context, t *tab, req calls.ActRequest, timeout time.Duration, found **element, pressed, shown *string) (func(context.Context) error, error) {
	if req.At == nil {
		return nil, calls.Errorf(calls.ErrBadInput, "give the point: "+calls.Cmd("click-at X Y")+" (CSS pixels from the view's top left corner, as a screenshot shows the view)", "click-at needs a point")
	}
	x, y := req.At.X, req.At.Y
	m, err := call(ctx, t, page.GetLayoutMetrics, cdp.Empty{})
	if err != nil {
		return nil, browserErr(err)
	}
	if m.CSSLayoutViewport == nil {
		return nil, calls.Errorf(calls.ErrUnavailable, "try again once the page has loaded", "the browser did not say how large the view is")
	}
	w, h := m.CSSLayoutViewport.ClientWidth, m.CSSLayoutViewport.ClientHeight
	if x < 0 || y < 0 || x >= float64(w) || y >= float64(h) {
		return nil, calls.Errorf(calls.ErrBadInput, "give a point inside the view; scroll first to bring what you want into it",
			"the point (%s, %s) is outside the view (%d×%d)", num(x), num(y), w, h)
	}
	loc, err := call(ctx, t, dom.GetNodeForLocation, dom.GetNodeForLocationParams{X: int64(x), Y: int64(y)})
	if err != nil || loc.BackendNodeID == 0 {
		return nil, calls.Errorf(calls.ErrNoMatch, "take a screenshot to see the view", "nothing is at (%s, %s)", num(x), num(y))
	}
	where := fmt.Sprintf("(%s, %s)", num(x), num(y))
	hit := &element{tab: t, sess: t.sess, frame: loc.FrameID, node: loc.BackendNodeID, what: "the element at " + where}
	if loc.FrameID != t.mainFrame() || isFrame(ctx, t, loc.BackendNodeID) {
		return nil, calls.Errorf(calls.ErrNotInteractable, "run "+calls.Cmd("snapshot -i")+" and click the control by its ref",
			"the point %s is inside a frame; click-at presses only in the page's own document", where)
	}
	ctrl, err := t.worldNode(ctx, hit, jsControlAt)
	if err != nil {
		return nil, err
	}
	if ctrl != 0 {
		// A control: the ordinary, guarded click on it, as `click @ref`.
		ref := s.refs.assign(t, "", t.mainFrame(), ctrl)
		el := &element{tab: t, sess: t.sess, frame: t.mainFrame(), node: ctrl, what: ref, hand: t.handFor(req.Hand)}
		el.line = axLine(ctx, t, ctrl)
		*pressed = el.line + " [ref=" + ref + "]"
		*found = el
		click := req
		click.Kind, click.Target = calls.ActClick, "@"+ref
		if *shown, err = s.gate(ctx, t, el, click, "click"); err != nil {
			return nil, err
		}
		hnd := el.hand
		return func(ctx context.Context) error {
			p, err := el.reach(ctx, checkVisible|checkEnabled|checkHit, timeout, hnd)
			if err != nil {
				return err
			}
			if !p.download {
				t.graceLater()
			}
			return t.clickAt(ctx, p, input.MouseButtonLeft, 1, hnd)
		}, nil
	}
	// A surface: pressed exactly at the point. The gate still reads the
	// element there (a surface is no submit control, but a page may say
	// otherwise), and a step that asks before a submit watches what the
	// press sends, as for any click.
	if *shown, err = s.gate(ctx, t, hit, req, "click"); err != nil {
		return nil, err
	}
	*pressed = axLine(ctx, t, loc.BackendNodeID) + " at " + where
	hnd := t.handFor(req.Hand)
	p := point{X: x, Y: y}
	return func(ctx context.Context) error {
		if err := t.moveTo(ctx, p, hnd); err != nil {
			return err
		}
		t.graceLater()
		return t.clickAt(ctx, p, input.MouseButtonLeft, 1, hnd)
	}, nil
}

// isFrame says whether the node is a frame's element (an <iframe> whose
// document lives in another process is hit as the element itself).
func isFrame(ctx context.Context, t *tab, node cdp.BackendNodeID) bool {
	d, err := call(ctx, t, dom.DescribeNode, dom.DescribeNodeParams{BackendNodeID: node})
	if err != nil || d.Node == nil {
		return false
	}
	n := strings.ToLower(d.Node.NodeName)
	return n == "iframe" || n == "frame" || n == "object" || n == "embed"
}

// axLine names a node as an outline line does: its role and accessible
// name ("button \"Save\""), or its tag when it has no role.
func axLine(ctx context.Context, t *tab, node cdp.BackendNodeID) string {
	tree, err := call(ctx, t, accessibility.GetPartialAXTree, accessibility.GetPartialAXTreeParams{BackendNodeID: node})
	if err == nil {
		for _, n := range tree.Nodes {
			if n.BackendDOMNodeID != node || n.Role == nil {
				continue
			}
			role := axString(n.Role)
			name := ""
			if n.Name != nil {
				name = axString(n.Name)
			}
			if role != "" && role != "generic" && role != "none" {
				if name != "" {
					return role + " " + strconv.Quote(name)
				}
				return role
			}
		}
	}
	if d, err := call(ctx, t, dom.DescribeNode, dom.DescribeNodeParams{BackendNodeID: node}); err == nil && d.Node != nil {
		return strings.ToLower(d.Node.NodeName)
	}
	return "the element"
}

func axString(v *accessibility.Value) string {
	var s string
	if v == nil || len(v.Value) == 0 {
		return ""
	}
	if err := json.Unmarshal(v.Value, &s); err != nil {
		return ""
	}
	return s
}

// num writes a coordinate without a needless fraction: 420, 310.5.
func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
