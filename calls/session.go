package calls

import "context"

// Session is every call a browser session answers, declared once: the
// in-process *driver.Session satisfies it, and so does [Remote], which
// sends each call through a [Caller] to wherever the browser is (the
// daemon's socket, or its handler in-process). The daemon's method table
// (internal/sessions) serves each method under its Method name; a test
// there fails when a method is added to one and not the other.
//
// A consumer that needs less declares its own narrower interface
// (pilot.Driver); Session is what the fronts (the CLI, the MCP server,
// test plans) call.
type Session interface {
	Open(ctx context.Context, req OpenRequest) (*PageInfo, error)
	Back(ctx context.Context) (*PageInfo, error)
	Forward(ctx context.Context) (*PageInfo, error)
	Reload(ctx context.Context) (*PageInfo, error)
	Snapshot(ctx context.Context, req SnapshotRequest) (*Snapshot, error)
	Act(ctx context.Context, req ActRequest) (*Outcome, error)
	Get(ctx context.Context, req GetRequest) (*GetResult, error)
	Wait(ctx context.Context, req WaitRequest) (*PageInfo, error)
	Eval(ctx context.Context, req EvalRequest) (*EvalResult, error)
	Screenshot(ctx context.Context, req ScreenshotRequest) (*Image, error)
	PDF(ctx context.Context) (*Image, error)
	Tab(ctx context.Context, req TabRequest) (*TabList, error)
	Cookies(ctx context.Context, req CookieRequest) (*CookieList, error)
	Storage(ctx context.Context, req StorageRequest) (*StorageItems, error)
	StateSave(ctx context.Context) (*State, error)
	StateLoad(ctx context.Context, st State) (*Empty, error)
	Viewport(ctx context.Context, req ViewportRequest) (*Empty, error)
	Dialog(ctx context.Context, req DialogRequest) (*Outcome, error)
	Locate(ctx context.Context, req LocateRequest) (*Evidence, error)
	Find(ctx context.Context, req FindRequest) (*Resolution, error)
	Problems(ctx context.Context, req ProblemsRequest) (*Problems, error)
	Downloads(ctx context.Context) (*DownloadList, error)
	// The form calls (form.go).
	Form(ctx context.Context, req FormRequest) (*Form, error)
	FillForm(ctx context.Context, req FormFillRequest) (*FormFillResult, error)
	FormReview(ctx context.Context, req FormReviewRequest) (*FormReview, error)
	NetLog(ctx context.Context, req NetLogRequest) (*NetLogResult, error)
	Fetch(ctx context.Context, req FetchRequest) (*FetchResult, error)
	PageTool(ctx context.Context, req PageToolRequest) (*PageToolResult, error)
	// CallAPI calls a site's API by a recipe (api.go).
	CallAPI(ctx context.Context, req APICallRequest) (*APICallResult, error)
	// What the pages logged and requested (pagelog in the driver).
	Console(ctx context.Context, req ConsoleRequest) (*ConsoleLog, error)
	Network(ctx context.Context, req NetworkRequest) (*NetworkLog, error)
	// Network capture (capture.go).
	StartCapture(ctx context.Context, req CaptureStartRequest) (*CaptureStarted, error)
	StopCapture(ctx context.Context, req CaptureStopRequest) (*CaptureStopResult, error)
	// The sheet calls (sheet.go).
	SheetRead(ctx context.Context, req SheetReadRequest) (*SheetGrid, error)
	SheetDump(ctx context.Context, req SheetDumpRequest) (*SheetGrid, error)
	SheetWrite(ctx context.Context, req SheetWriteRequest) (*SheetWriteResult, error)
	SheetFill(ctx context.Context, req SheetFillRequest) (*SheetFillResult, error)
	// The document calls (document.go).
	DocRead(ctx context.Context, req DocReadRequest) (*Doc, error)
	DocFind(ctx context.Context, req DocFindRequest) (*DocFound, error)
	DocInsert(ctx context.Context, req DocInsertRequest) (*DocInserted, error)
}

// Caller sends one call of a session, JSON in and out, and decodes the
// reply into result, a pointer: the daemon client, or the daemon's handler
// in-process (sessions.Manager). Failures carry the categories of this
// package (ErrStaleRef, ErrUnavailable, …) and their hints. Fronts fake
// it in tests.
type Caller interface {
	Call(ctx context.Context, session, method string, params, result any) error
}

// Remote is the [Session] named Session reached through Caller: each
// method sends its Method name and request and decodes the result type
// that goes with it, so no front pairs a method name with a result type by
// hand. Calls that take no request send Empty.
//
// Besides the Session calls, it makes the calls the daemon answers for a
// session without the driver (recording by hand).
type Remote struct {
	Caller  Caller
	Session string
}

var _ Session = Remote{}

// remote makes one call and returns its decoded result.
func remote[R any](ctx context.Context, r Remote, method string, params any) (*R, error) {
	var res R
	if err := r.Caller.Call(ctx, r.Session, method, params, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// Open goes to a URL in the current tab and waits for the load.
func (r Remote) Open(ctx context.Context, req OpenRequest) (*PageInfo, error) {
	return remote[PageInfo](ctx, r, MethodOpen, req)
}

// Back goes back one page in the tab's history.
func (r Remote) Back(ctx context.Context) (*PageInfo, error) {
	return remote[PageInfo](ctx, r, MethodBack, Empty{})
}

// Forward goes forward one page in the tab's history.
func (r Remote) Forward(ctx context.Context) (*PageInfo, error) {
	return remote[PageInfo](ctx, r, MethodForward, Empty{})
}

// Reload reloads the current page.
func (r Remote) Reload(ctx context.Context) (*PageInfo, error) {
	return remote[PageInfo](ctx, r, MethodReload, Empty{})
}

// Snapshot returns the page as an outline whose elements carry refs.
func (r Remote) Snapshot(ctx context.Context, req SnapshotRequest) (*Snapshot, error) {
	return remote[Snapshot](ctx, r, MethodSnapshot, req)
}

// Act acts on an element (click, fill, press, …) and says what followed.
func (r Remote) Act(ctx context.Context, req ActRequest) (*Outcome, error) {
	return remote[Outcome](ctx, r, MethodAct, req)
}

// Get reads a value of the page or an element (text, title, url, attr, count, …).
func (r Remote) Get(ctx context.Context, req GetRequest) (*GetResult, error) {
	return remote[GetResult](ctx, r, MethodGet, req)
}

// Wait waits for one condition on the page.
func (r Remote) Wait(ctx context.Context, req WaitRequest) (*PageInfo, error) {
	return remote[PageInfo](ctx, r, MethodWait, req)
}

// Eval runs JavaScript in the page and returns its JSON value.
func (r Remote) Eval(ctx context.Context, req EvalRequest) (*EvalResult, error) {
	return remote[EvalResult](ctx, r, MethodEval, req)
}

// Screenshot captures the viewport, the whole page or an element as PNG.
func (r Remote) Screenshot(ctx context.Context, req ScreenshotRequest) (*Image, error) {
	return remote[Image](ctx, r, MethodScreenshot, req)
}

// PDF prints the page to PDF.
func (r Remote) PDF(ctx context.Context) (*Image, error) {
	return remote[Image](ctx, r, MethodPDF, Empty{})
}

// Tab lists, opens, switches or closes tabs.
func (r Remote) Tab(ctx context.Context, req TabRequest) (*TabList, error) {
	return remote[TabList](ctx, r, MethodTab, req)
}

// Cookies reads, sets or clears the session's cookies.
func (r Remote) Cookies(ctx context.Context, req CookieRequest) (*CookieList, error) {
	return remote[CookieList](ctx, r, MethodCookies, req)
}

// Storage reads or writes the current origin's local or session storage.
func (r Remote) Storage(ctx context.Context, req StorageRequest) (*StorageItems, error) {
	return remote[StorageItems](ctx, r, MethodStorage, req)
}

// StateSave returns the session's cookies and storage.
func (r Remote) StateSave(ctx context.Context) (*State, error) {
	return remote[State](ctx, r, MethodStateSave, Empty{})
}

// StateLoad restores cookies and storage saved by StateSave.
func (r Remote) StateLoad(ctx context.Context, st State) (*Empty, error) {
	return remote[Empty](ctx, r, MethodStateLoad, st)
}

// Viewport sets the size of the viewport.
func (r Remote) Viewport(ctx context.Context, req ViewportRequest) (*Empty, error) {
	return remote[Empty](ctx, r, MethodViewport, req)
}

// Dialog accepts or dismisses the open JavaScript dialog.
func (r Remote) Dialog(ctx context.Context, req DialogRequest) (*Outcome, error) {
	return remote[Outcome](ctx, r, MethodDialog, req)
}

// Locate returns the evidence for a target: its ref and the locator chosen for it.
func (r Remote) Locate(ctx context.Context, req LocateRequest) (*Evidence, error) {
	return remote[Evidence](ctx, r, MethodLocate, req)
}

// Find resolves a recorded target on the current page.
func (r Remote) Find(ctx context.Context, req FindRequest) (*Resolution, error) {
	return remote[Resolution](ctx, r, MethodFind, req)
}

// Console returns the console messages the pages logged.
func (r Remote) Console(ctx context.Context, req ConsoleRequest) (*ConsoleLog, error) {
	return remote[ConsoleLog](ctx, r, MethodConsole, req)
}

// Network returns the requests the pages made, with their outcome.
func (r Remote) Network(ctx context.Context, req NetworkRequest) (*NetworkLog, error) {
	return remote[NetworkLog](ctx, r, MethodNetwork, req)
}

// Problems returns the console errors and failed requests the pages reported.
func (r Remote) Problems(ctx context.Context, req ProblemsRequest) (*Problems, error) {
	return remote[Problems](ctx, r, MethodProblems, req)
}

// Downloads lists the session's downloads.
func (r Remote) Downloads(ctx context.Context) (*DownloadList, error) {
	return remote[DownloadList](ctx, r, MethodDownloads, Empty{})
}

// Fetch makes an HTTP request from the page, as the browser's own.
func (r Remote) Fetch(ctx context.Context, req FetchRequest) (*FetchResult, error) {
	return remote[FetchResult](ctx, r, MethodFetch, req)
}

// PageTool lists or calls the tools the page offers to agents (WebMCP).
func (r Remote) PageTool(ctx context.Context, req PageToolRequest) (*PageToolResult, error) {
	return remote[PageToolResult](ctx, r, MethodPageTool, req)
}

// CallAPI calls a site's API by a recipe, from a tab of the site.
func (r Remote) CallAPI(ctx context.Context, req APICallRequest) (*APICallResult, error) {
	return remote[APICallResult](ctx, r, MethodAPICall, req)
}

// NetLog sums up the browser's NetLog over a span of time.
func (r Remote) NetLog(ctx context.Context, req NetLogRequest) (*NetLogResult, error) {
	return remote[NetLogResult](ctx, r, MethodNetLog, req)
}

// RecordStart begins recording the session's actions by hand (the daemon
// answers it, not the driver).
func (r Remote) RecordStart(ctx context.Context, req RecordStartRequest) (*RecordStarted, error) {
	return remote[RecordStarted](ctx, r, MethodRecordStart, req)
}

// RecordStop ends the session's recording by hand and returns the routine.
func (r Remote) RecordStop(ctx context.Context, req RecordStopRequest) (*RecordStopResult, error) {
	return remote[RecordStopResult](ctx, r, MethodRecordStop, req)
}

// StartCapture starts capturing the session's network.
func (r Remote) StartCapture(ctx context.Context, req CaptureStartRequest) (*CaptureStarted, error) {
	return remote[CaptureStarted](ctx, r, MethodCaptureStart, req)
}

// StopCapture ends the session's capture (or, with Keep, reads it so far).
func (r Remote) StopCapture(ctx context.Context, req CaptureStopRequest) (*CaptureStopResult, error) {
	return remote[CaptureStopResult](ctx, r, MethodCaptureStop, req)
}
