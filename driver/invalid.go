package driver

import (
	"context"
	"strconv"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"
)

// shownInvalidWait bounds the read: the outline is worth more than the
// messages on it.
const shownInvalidWait = time.Second

// shownInvalid reads the validation message of each field the page shows
// as invalid (js/shown_invalid.js), by backend node id, for the outline's
// "[invalid: …]" (a DOMSnapshot does not carry it). It reads the main
// frame's document in our world; a page with none costs one round trip,
// run beside the capture. A failed read shows no message.
func (t *tab) shownInvalid(ctx context.Context) map[cdp.BackendNodeID]string {
	if t.pendingDialog() != nil {
		return nil // a script would wait for the answer
	}
	ctx, cancel := context.WithTimeout(ctx, shownInvalidWait)
	defer cancel()
	sess := t.sess
	id, err := t.world(ctx, sess, t.mainFrame())
	if err != nil {
		return nil
	}
	group := callGroup()
	defer releaseLater(ctx, sess, group)
	res, err := cdp.Call(ctx, sess, runtime.Evaluate, runtime.EvaluateParams{
		Expression: jsShownInvalid, ContextID: id, ObjectGroup: group,
	})
	if err != nil || res.ExceptionDetails != nil || res.Result == nil || res.Result.ObjectID == "" {
		return nil // null: nothing shown as invalid
	}
	list := res.Result.ObjectID
	var msgs []string
	msg, err := cdp.Call(ctx, sess, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
		FunctionDeclaration: `function () { return this.map((f) => f.validationMessage); }`,
		ObjectID:            list, ReturnByValue: new(true),
	})
	if err != nil || decodeResult(msg.Result, msg.ExceptionDetails, &msgs) != nil {
		return nil
	}
	props, err := cdp.Call(ctx, sess, runtime.GetProperties, runtime.GetPropertiesParams{ObjectID: list, OwnProperties: new(true)})
	if err != nil {
		return nil
	}
	out := map[cdp.BackendNodeID]string{}
	for i := range msgs {
		var obj runtime.RemoteObjectID
		for _, p := range props.Result {
			if p.Name == strconv.Itoa(i) && p.Value != nil {
				obj = p.Value.ObjectID
			}
		}
		if obj == "" {
			continue
		}
		d, err := cdp.Call(ctx, sess, dom.DescribeNode, dom.DescribeNodeParams{ObjectID: obj})
		if err != nil || d.Node == nil {
			continue
		}
		out[d.Node.BackendNodeID] = msgs[i]
	}
	return out
}
