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

func (r Remote) Open(ctx context.Context, req OpenRequest) (*PageInfo, error) {
	return remote[PageInfo](ctx, r, MethodOpen, req)
}

func (r Remote) Back(ctx context.Context) (*PageInfo, error) {
	return remote[PageInfo](ctx, r, MethodBack, Empty{})
}

func (r Remote) Forward(ctx context.Context) (*PageInfo, error) {
	return remote[PageInfo](ctx, r, MethodForward, Empty{})
}

func (r Remote) Reload(ctx context.Context) (*PageInfo, error) {
	return remote[PageInfo](ctx, r, MethodReload, Empty{})
}

func (r Remote) Snapshot(ctx context.Context, req SnapshotRequest) (*Snapshot, error) {
	return remote[Snapshot](ctx, r, MethodSnapshot, req)
}

func (r Remote) Act(ctx context.Context, req ActRequest) (*Outcome, error) {
	return remote[Outcome](ctx, r, MethodAct, req)
}

func (r Remote) Get(ctx context.Context, req GetRequest) (*GetResult, error) {
	return remote[GetResult](ctx, r, MethodGet, req)
}

func (r Remote) Wait(ctx context.Context, req WaitRequest) (*PageInfo, error) {
	return remote[PageInfo](ctx, r, MethodWait, req)
}

func (r Remote) Eval(ctx context.Context, req EvalRequest) (*EvalResult, error) {
	return remote[EvalResult](ctx, r, MethodEval, req)
}

func (r Remote) Screenshot(ctx context.Context, req ScreenshotRequest) (*Image, error) {
	return remote[Image](ctx, r, MethodScreenshot, req)
}

func (r Remote) PDF(ctx context.Context) (*Image, error) {
	return remote[Image](ctx, r, MethodPDF, Empty{})
}

func (r Remote) Tab(ctx context.Context, req TabRequest) (*TabList, error) {
	return remote[TabList](ctx, r, MethodTab, req)
}

func (r Remote) Cookies(ctx context.Context, req CookieRequest) (*CookieList, error) {
	return remote[CookieList](ctx, r, MethodCookies, req)
}

func (r Remote) Storage(ctx context.Context, req StorageRequest) (*StorageItems, error) {
	return remote[StorageItems](ctx, r, MethodStorage, req)
}

func (r Remote) StateSave(ctx context.Context) (*State, error) {
	return remote[State](ctx, r, MethodStateSave, Empty{})
}

func (r Remote) StateLoad(ctx context.Context, st State) (*Empty, error) {
	return remote[Empty](ctx, r, MethodStateLoad, st)
}

func (r Remote) Viewport(ctx context.Context, req ViewportRequest) (*Empty, error) {
	return remote[Empty](ctx, r, MethodViewport, req)
}

func (r Remote) Dialog(ctx context.Context, req DialogRequest) (*Outcome, error) {
	return remote[Outcome](ctx, r, MethodDialog, req)
}

func (r Remote) Locate(ctx context.Context, req LocateRequest) (*Evidence, error) {
	return remote[Evidence](ctx, r, MethodLocate, req)
}

func (r Remote) Find(ctx context.Context, req FindRequest) (*Resolution, error) {
	return remote[Resolution](ctx, r, MethodFind, req)
}

func (r Remote) Problems(ctx context.Context, req ProblemsRequest) (*Problems, error) {
	return remote[Problems](ctx, r, MethodProblems, req)
}

func (r Remote) Downloads(ctx context.Context) (*DownloadList, error) {
	return remote[DownloadList](ctx, r, MethodDownloads, Empty{})
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
