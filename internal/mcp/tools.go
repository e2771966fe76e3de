package mcp

import (
	"context"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/approval"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/rpc"
	"github.com/waymark-dev/waymark/secret"
)

// The tools' inputs. Descriptions are short on purpose (see the package
// doc); a field without omitempty is required.
type (
	navigateIn struct {
		URL string `json:"url"`
	}
	noIn       struct{}
	snapshotIn struct {
		Interactive bool   `json:"interactive,omitempty" jsonschema:"only elements with refs"`
		Scope       string `json:"scope,omitempty" jsonschema:"ref or CSS selector: only that subtree"`
		Full        bool   `json:"full,omitempty" jsonschema:"whole page, not viewport first"`
		Depth       int    `json:"depth,omitempty" jsonschema:"max levels"`
	}
	targetIn struct {
		Target string `json:"target"`
	}
	clickIn struct {
		Target string `json:"target,omitempty"`
		At     string `json:"at,omitempty" jsonschema:"x,y: a view point (px), not target"`
		Button string `json:"button,omitempty"`
		Count  int    `json:"count,omitempty" jsonschema:"2 for double click"`
	}
	fillIn struct {
		Target string `json:"target"`
		Value  string `json:"value"`
	}
	pressIn struct {
		Key    string `json:"key" jsonschema:"e.g. Enter, Control+A"`
		Target string `json:"target,omitempty" jsonschema:"default: focused element"`
	}
	selectIn struct {
		Target string   `json:"target"`
		Values []string `json:"values" jsonschema:"labels or values"`
	}
	scrollIn struct {
		Direction string `json:"direction"`
		Pixels    int    `json:"pixels,omitempty" jsonschema:"default: one screen"`
		Target    string `json:"target,omitempty" jsonschema:"default: page"`
	}
	uploadIn struct {
		Target string   `json:"target"`
		Files  []string `json:"files" jsonschema:"absolute paths"`
	}
	dragIn struct {
		Source string `json:"source"`
		To     string `json:"to,omitempty"`
		By     string `json:"by,omitempty" jsonschema:"dx,dy (px), not to"`
	}
	waitIn struct {
		Text      string `json:"text,omitempty" jsonschema:"text appears"`
		Gone      string `json:"gone,omitempty" jsonschema:"text disappears"`
		Selector  string `json:"selector,omitempty" jsonschema:"CSS matches a visible element"`
		URL       string `json:"url,omitempty" jsonschema:"the URL matches a glob: * any run of characters, ? one; a glob starting with / matches the path"`
		MS        int    `json:"ms,omitempty" jsonschema:"sleep ms, if nothing else is set"`
		TimeoutMS int    `json:"timeout_ms,omitempty"`
	}
	screenshotIn struct {
		Full   bool     `json:"full,omitempty" jsonschema:"whole page"`
		Target string   `json:"target,omitempty" jsonschema:"only this element"`
		Mask   []string `json:"mask,omitempty" jsonschema:"refs to black out"`
	}
	tabsIn struct {
		Op  string `json:"op"`
		URL string `json:"url,omitempty" jsonschema:"new"`
		// Index is a pointer to tell no index from tab 0: close with
		// none closes the current tab, as `waymark tab close` does, and
		// switch needs one (it went to tab 0 unasked, and close closed
		// tab 0, often the person's first page).
		Index *int `json:"index,omitempty" jsonschema:"switch, close (default: current)"`
	}
	dialogIn struct {
		Accept bool   `json:"accept"`
		Text   string `json:"text,omitempty" jsonschema:"prompt answer"`
	}
	evalIn struct {
		Expression string `json:"expression"`
	}
)

// closeOut answers close.
type closeOut struct {
	Closed bool `json:"closed"`
}

// tools holds what the handlers share.
type tools struct {
	s         calls.Session // the waymark session the tools act on
	daemon    rpc.Daemon    // the same session, for the daemon's own calls (close)
	timeoutMS int           // Options.Timeout in milliseconds; zero: the daemon's defaults
	id        string        // this server, among readers of the session (reply.go)

	// srv is the server the tools are on, for the tools an application
	// brings (apptools.go); apps are the kinds whose tools are on it.
	srv      *sdk.Server
	apps     sync.Map
	pageTool *pageToolOffer // adds page_tool once a look shows page tools (discover.go)

	// approvals and secrets are Options': for sign-in routines (signin.go).
	approvals *approval.Authority
	secrets   map[string]secret.Value
}

func (t *tools) register(s *sdk.Server, allowEval bool) {
	add(s, "navigate", "Open a URL.", func(ctx context.Context, r *sdk.CallToolRequest, in navigateIn) (string, pageOut, error) {
		info, err := t.s.Open(ctx, calls.OpenRequest{URL: in.URL, TimeoutMS: t.timeoutMS})
		return t.page(ctx, r, info, err)
	})
	add(s, "back", "Go back in history.", func(ctx context.Context, r *sdk.CallToolRequest, _ noIn) (string, pageOut, error) {
		info, err := t.s.Back(ctx)
		return t.page(ctx, r, info, err)
	})
	add(s, "forward", "Go forward.", func(ctx context.Context, r *sdk.CallToolRequest, _ noIn) (string, pageOut, error) {
		info, err := t.s.Forward(ctx)
		return t.page(ctx, r, info, err)
	})
	add(s, "reload", "Reload.", func(ctx context.Context, r *sdk.CallToolRequest, _ noIn) (string, pageOut, error) {
		info, err := t.s.Reload(ctx)
		return t.page(ctx, r, info, err)
	})
	add(s, "snapshot", "Outline of the page; refs are targets.", func(ctx context.Context, r *sdk.CallToolRequest, in snapshotIn) (string, snapshotOut, error) {
		return t.snapshot(ctx, r, calls.SnapshotRequest{Interactive: in.Interactive, Scope: in.Scope, Full: in.Full, Depth: in.Depth})
	})
	add(s, "click", "Click an element.", func(ctx context.Context, r *sdk.CallToolRequest, in clickIn) (string, actOut, error) {
		req := calls.ActRequest{Kind: calls.ActClick, Target: in.Target, Button: in.Button, Count: in.Count}
		if in.At == "" && in.Target == "" {
			return "", actOut{}, calls.Errorf(calls.ErrBadInput, "call click with target (a ref such as e12, or a locator), or at (a point of the view)", "click needs the argument target, or at")
		}
		if in.At != "" {
			if in.Target != "" || in.Button != "" || in.Count > 1 {
				return "", actOut{}, calls.Errorf(calls.ErrBadInput, "give target, or at alone", "click takes a target or a point (at), not both")
			}
			p, err := calls.ParsePoint(in.At)
			if err != nil {
				return "", actOut{}, &calls.Error{Kind: calls.ErrBadInput, Msg: err.Error(), Hint: "give at as x,y in CSS pixels from the view's top left corner"}
			}
			req = calls.ActRequest{Kind: calls.ActClickAt, At: &p}
		}
		return t.act(ctx, r, req)
	})
	add(s, "fill", "Replace a field's value.", func(ctx context.Context, r *sdk.CallToolRequest, in fillIn) (string, actOut, error) {
		return t.act(ctx, r, calls.ActRequest{Kind: calls.ActFill, Target: in.Target, Value: in.Value})
	})
	add(s, "type", "Type text key by key.", func(ctx context.Context, r *sdk.CallToolRequest, in fillIn) (string, actOut, error) {
		return t.act(ctx, r, calls.ActRequest{Kind: calls.ActType, Target: in.Target, Value: in.Value})
	})
	add(s, "press", "Press a key.", func(ctx context.Context, r *sdk.CallToolRequest, in pressIn) (string, actOut, error) {
		return t.act(ctx, r, calls.ActRequest{Kind: calls.ActPress, Target: in.Target, Key: in.Key})
	})
	add(s, "select", "Choose options of a select.", func(ctx context.Context, r *sdk.CallToolRequest, in selectIn) (string, actOut, error) {
		return t.act(ctx, r, calls.ActRequest{Kind: calls.ActSelect, Target: in.Target, Values: in.Values})
	})
	for _, k := range []struct{ kind, desc string }{
		{calls.ActCheck, "Check a checkbox or radio."},
		{calls.ActUncheck, "Uncheck a checkbox."},
		{calls.ActHover, "Hover an element."},
	} {
		add(s, k.kind, k.desc, func(ctx context.Context, r *sdk.CallToolRequest, in targetIn) (string, actOut, error) {
			return t.act(ctx, r, calls.ActRequest{Kind: k.kind, Target: in.Target})
		})
	}
	add(s, "scroll", "Scroll the page or an element.", func(ctx context.Context, r *sdk.CallToolRequest, in scrollIn) (string, actOut, error) {
		return t.act(ctx, r, calls.ActRequest{Kind: calls.ActScroll, Target: in.Target, Direction: in.Direction, Pixels: in.Pixels})
	})
	add(s, "upload", "Set the files of a file input.", func(ctx context.Context, r *sdk.CallToolRequest, in uploadIn) (string, actOut, error) {
		// A relative path is sent as given, with no folder: this server's
		// (Claude Desktop starts it in /) is not the client's either. The
		// daemon refuses it with the hint to give it whole
		// (driver.Options.RemoteCallers), as it does a form_fill's file
		// answer.
		return t.act(ctx, r, calls.ActRequest{Kind: calls.ActUpload, Target: in.Target, Files: in.Files})
	})
	add(s, "drag", "Drag source onto to.", func(ctx context.Context, r *sdk.CallToolRequest, in dragIn) (string, actOut, error) {
		req := calls.ActRequest{Kind: calls.ActDrag, Target: in.Source, To: in.To}
		if in.By != "" {
			p, err := calls.ParsePoint(in.By)
			if err != nil {
				return "", actOut{}, &calls.Error{Kind: calls.ErrBadInput, Msg: err.Error(), Hint: "give by as dx,dy in CSS pixels"}
			}
			req.By = &p
		}
		return t.act(ctx, r, req)
	})
	add(s, "wait", "Wait for a condition.", func(ctx context.Context, r *sdk.CallToolRequest, in waitIn) (string, pageOut, error) {
		req := calls.WaitRequest{Text: in.Text, Gone: in.Gone, Selector: in.Selector, URL: in.URL, MS: in.MS, TimeoutMS: in.TimeoutMS}
		if req.Text == "" && req.Gone == "" && req.Selector == "" && req.URL == "" && req.MS <= 0 {
			// Refused here: the driver's hint names the command's flags
			// (--text, --load), which the tool does not have.
			return "", pageOut{}, calls.Errorf(calls.ErrBadInput, "call wait with text, gone, selector or url (a condition), or ms (a pause)",
				"wait needs one of the arguments text, gone, selector, url or ms")
		}
		return t.wait(ctx, r, req)
	})
	addImage(s, "screenshot", "PNG of the viewport.", func(ctx context.Context, r *sdk.CallToolRequest, in screenshotIn) (*sdk.CallToolResult, error) {
		return t.screenshot(ctx, calls.ScreenshotRequest{Full: in.Full, Target: in.Target, Mask: in.Mask})
	})
	add(s, "tabs", "List, open, switch or close tabs.", func(ctx context.Context, r *sdk.CallToolRequest, in tabsIn) (string, calls.TabList, error) {
		req := calls.TabRequest{Op: in.Op, URL: in.URL}
		switch {
		case in.Index != nil:
			req.Index = *in.Index
		case in.Op == "close":
			req.Index = -1 // the current tab
		case in.Op == "switch":
			return "", calls.TabList{}, calls.Errorf(calls.ErrBadInput, "call tabs with op list to see the tabs and their numbers",
				"tabs switch needs the argument index (the tab's number, from 0)")
		}
		return t.tabs(ctx, req)
	})
	add(s, "dialog", "Answer the open JS dialog.", func(ctx context.Context, r *sdk.CallToolRequest, in dialogIn) (string, actOut, error) {
		return t.dialog(ctx, r, calls.DialogRequest{Accept: in.Accept, Text: in.Text})
	})
	// close ends the session as `waymark close` does: its tabs, cookies
	// and refs; the next call starts a fresh one.
	add(s, "close", "End the session.", func(ctx context.Context, r *sdk.CallToolRequest, _ noIn) (string, closeOut, error) {
		if err := t.daemon.CloseSession(ctx); err != nil {
			return "", closeOut{}, err
		}
		return "closed the session; the next call starts a fresh one", closeOut{Closed: true}, nil
	})
	t.registerEvidence(s) // console, network (evidence.go)
	if allowEval {
		add(s, "eval", "Run JavaScript; returns its JSON value.", func(ctx context.Context, r *sdk.CallToolRequest, in evalIn) (string, evalOut, error) {
			return t.eval(ctx, calls.EvalRequest{Expression: in.Expression})
		})
	}
}
