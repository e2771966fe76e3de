// Package pagetool reads and calls the tools a page offers agents
// (WebMCP).
//
// A page offers tools to agents with
// document.modelContext.registerTool (navigator.modelContext in the
// explainer). Chromium 156 implements it natively behind the WebMCP
// feature, which waymark's browsers run with (internal/browser), and
// reports every registration to DevTools: the WebMCP domain sends
// toolsAdded and toolsRemoved, and invokeTool calls a tool in its frame.
// Chromium 148 differs: the page's API is navigator.modelContext, the
// domain needs the DevToolsWebMCPSupport feature, it has no invokeTool
// (a call goes through navigator.modelContextTesting, the WebMCPTesting
// feature, from our isolated world: still nothing in the page's world),
// a completed call's status is Success, and toolsAdded carries no
// annotations, so no tool is known read-only there: each needs an
// approval, the safe side.
//
// So the tools are read without touching the page's world (invariant 7):
// no script of ours runs in the page, nothing is defined there, and no
// getter, proxy or toString of the page's runs on our behalf. The page's
// own registerTool call is what reads its dictionary (a getter that
// throws makes the page's call throw; one that blocks holds the page's
// own thread, which a look already survives as an unresponsive page).
// What reaches us is bounded here: at most maxPageTools tools of the main
// frame, each with a plain identifier for a name (a name with a newline
// or a space could forge a line of the outline, so it is dropped and
// counted), its description clipped to one line, its schema to
// maxToolSchema bytes; a page that registers ten thousand tools costs one
// event and a count. A page that polyfills the API in its own script (no
// native registration) offers nothing this reads: reading it would mean
// running the page's code.
//
// It is one of the driver's feature rooms (driver/doc.go, Layout): it
// never imports driver. Whether a call may be made (the approval rule) and
// the watch on what a read-only tool sends are the core's send gate
// (driver/pagetools.go, pagetools_sends.go).
package pagetool
