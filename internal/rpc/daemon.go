package rpc

import (
	"context"
)

// Daemon makes the calls the daemon answers itself (methods.go) through
// Caller, typed as calls.Remote types the page calls: no front pairs a
// method name with a result type by hand. The calls travel for Session,
// in its turn behind that session's calls, as the CLI always sent them;
// CloseSession closes it.
type Daemon struct {
	Caller  Caller
	Session string
}

// Caller is calls.Caller's method set, named here so that the package
// links no calls: the thin front (cmd/waymark-front) links rpc for the
// wire, and calls would bring sheet, regexp, net/url and their inits into
// every command's start.
type Caller interface {
	Call(ctx context.Context, session, method string, params, result any) error
}

// empty is a call's empty request or result, as calls.Empty.
type empty = struct{}

// Status reports the daemon's process, version and browser.
func (d Daemon) Status(ctx context.Context) (*DaemonStatus, error) {
	var st DaemonStatus
	if err := d.Caller.Call(ctx, d.Session, MethodDaemonStatus, empty{}, &st); err != nil {
		return nil, err
	}
	return &st, nil
}

// Stop stops the daemon and its browser.
func (d Daemon) Stop(ctx context.Context) error {
	return d.Caller.Call(ctx, d.Session, MethodDaemonStop, empty{}, &empty{})
}

// Sessions lists the open sessions.
func (d Daemon) Sessions(ctx context.Context) (*SessionList, error) {
	var list SessionList
	if err := d.Caller.Call(ctx, d.Session, MethodSessionList, empty{}, &list); err != nil {
		return nil, err
	}
	return &list, nil
}

// CloseSession closes the session, its tabs and its browser context;
// closing one that is not open is no error.
func (d Daemon) CloseSession(ctx context.Context) error {
	return d.Caller.Call(ctx, d.Session, MethodSessionClose, empty{}, &empty{})
}

// CloseAllSessions closes every session.
func (d Daemon) CloseAllSessions(ctx context.Context) error {
	return d.Caller.Call(ctx, d.Session, MethodSessionCloseAll, empty{}, &empty{})
}
