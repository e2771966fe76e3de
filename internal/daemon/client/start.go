package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/rpc"
	"github.com/waymark-dev/waymark/internal/wait"
	"github.com/waymark-dev/waymark/secret"
)

// maxLog is the size at which a daemon's log is moved aside (to .1) when the
// next daemon starts.
const maxLog = 10 << 20

// connect dials the daemon and, if allowed, starts or restarts one. It is
// called with c.mu held.
func (c *Client) connect(ctx context.Context, tolerant bool) (*conn, error) {
	cn, err := c.dial(ctx)
	var oe *ownerError
	switch {
	case errors.As(err, &oe):
		return nil, calls.Errorf(calls.ErrUnavailable, "", "refusing to talk to the daemon: %v", err)
	case err == nil && (tolerant || c.sameVersion(cn)):
		return cn, nil
	case err == nil:
		if !c.opts.AutoStart {
			cn.close()
			return nil, c.versionError(cn)
		}
		c.notice("waymark: restarting the daemon (it runs %s, this is %s; it closes every session)", cn.hello.Binary, c.opts.Version)
		if err := c.stopDaemon(ctx, cn); err != nil {
			return nil, err
		}
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case !c.opts.AutoStart:
		return nil, calls.Errorf(calls.ErrUnavailable, "start one with "+calls.Cmd("daemon")+" (it stays in the foreground)",
			"no waymark daemon answers on %s (%v)", c.paths.Socket, err)
	}
	return c.start(ctx)
}

func (c *Client) versionError(cn *conn) error {
	return &VersionError{err: &calls.Error{Kind: calls.ErrUnavailable, Hint: "run " + calls.Cmd("daemon stop") + ", then the command again",
		Msg: fmt.Sprintf("the waymark daemon runs version %s (protocol %s), and this is %s (protocol %s)",
			cn.hello.Binary, cn.protocol, c.opts.Version, rpc.Version)}}
}

// VersionError is the answer of a daemon of another version to a client
// that may not restart it. It is [calls.ErrUnavailable] (exit 3), but a
// daemon did answer: a command that takes "no daemon" for an answer (a
// session list with nothing in it) must not take this one for it.
type VersionError struct{ err *calls.Error }

func (e *VersionError) Error() string { return e.err.Error() }
func (e *VersionError) Unwrap() error { return e.err }

// stopDaemon asks the daemon on cn to stop and waits until its socket no
// longer answers.
func (c *Client) stopDaemon(ctx context.Context, cn *conn) error {
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_, err := cn.call(ctx, "", rpc.MethodDaemonStop, nil)
	pid := cn.hello.PID
	cn.close()
	if err != nil {
		return calls.Errorf(calls.ErrUnavailable, fmt.Sprintf("stop it with \"kill %d\", then run the command again", pid),
			"could not stop the waymark daemon of version %s: %v", cn.hello.Binary, err)
	}
	// stillUp is the answer when the five seconds end, in a dial or in the
	// pause between two; the caller's own end is its own error.
	stillUp := func() error {
		if err := parent.Err(); err != nil {
			return err
		}
		return calls.Errorf(calls.ErrUnavailable, fmt.Sprintf("stop it with \"kill %d\", then run the command again", pid),
			"the waymark daemon of version %s was asked to stop but still answers", cn.hello.Binary)
	}
	for {
		nc, err := c.rawDial(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return stillUp()
			}
			return nil
		}
		nc.Close()
		if wait.Sleep(ctx, 10*time.Millisecond) != nil {
			return stillUp()
		}
	}
}

func (c *Client) rawDial(ctx context.Context) (net.Conn, error) {
	if c.opts.Dial != nil {
		return c.opts.Dial(ctx)
	}
	var d net.Dialer
	return d.DialContext(ctx, "unix", c.paths.Socket)
}

// start starts a daemon and connects to it. Under the start lock it dials
// once more, since another client may have started one meanwhile.
func (c *Client) start(parent context.Context) (*conn, error) {
	if err := c.paths.Prepare(); err != nil {
		return nil, calls.Errorf(calls.ErrUnavailable, "", "cannot start the waymark daemon: %v", err)
	}
	ctx, cancel := context.WithTimeout(parent, c.opts.StartTimeout)
	defer cancel()
	unlock, err := lockFile(ctx, c.paths.Lock)
	if err != nil {
		if parent.Err() != nil {
			return nil, parent.Err()
		}
		return nil, calls.Errorf(calls.ErrUnavailable, "run the command again",
			"cannot take the daemon's start lock %s: %v", c.paths.Lock, err)
	}
	defer unlock()
	if cn, err := c.dial(ctx); err == nil {
		if c.sameVersion(cn) {
			return cn, nil
		}
		cn.close()
		return nil, c.versionError(cn)
	}

	logStart, exited, pid, err := c.exec()
	if err != nil {
		return nil, calls.Errorf(calls.ErrUnavailable, "", "cannot start the waymark daemon: %v", err)
	}
	c.notice("waymark: started the daemon (pid %d, log %s)", pid, c.paths.Log)
	for delay := 5 * time.Millisecond; ; delay = min(2*delay, 200*time.Millisecond) {
		cn, err := c.dial(ctx)
		if err == nil {
			if c.sameVersion(cn) {
				return cn, nil
			}
			cn.close()
			return nil, c.versionError(cn)
		}
		select {
		case <-ctx.Done():
			if parent.Err() != nil {
				return nil, parent.Err()
			}
			return nil, calls.Errorf(calls.ErrUnavailable, "see the log, then run the command again",
				"the waymark daemon (pid %d) did not answer within %s; its log is %s", pid, c.opts.StartTimeout, c.paths.Log)
		case werr := <-exited:
			if cn, err := c.dial(ctx); err == nil && c.sameVersion(cn) {
				return cn, nil // it lost a race to a daemon started by hand
			}
			return nil, calls.Errorf(calls.ErrUnavailable, "see the log, then run the command again",
				"the waymark daemon exited as it started (%v); %s says:\n%s", werr, c.paths.Log, tail(c.paths.Log, logStart))
		case <-time.After(delay):
		}
	}
}

// exec starts "Exe daemon Args..." in a session of its own, with its output
// appended to the log. It returns the log's size before the start, a channel
// that gets the daemon's exit, and its pid.
func (c *Client) exec() (int64, <-chan error, int, error) {
	exe := c.opts.Exe
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return 0, nil, 0, err
		}
	}
	if fi, err := os.Stat(c.paths.Log); err == nil && fi.Size() > maxLog {
		os.Rename(c.paths.Log, c.paths.Log+".1")
	}
	logf, err := os.OpenFile(c.paths.Log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return 0, nil, 0, err
	}
	defer logf.Close() // the daemon has its own copy
	var start int64
	if fi, err := logf.Stat(); err == nil {
		start = fi.Size()
	}
	cmd := exec.Command(exe, append([]string{"daemon"}, c.opts.Args...)...)
	// The daemon, and the browser it starts, get no model key and no
	// variable a --secret was read from: a page it loads can never reach
	// them (secret.Environ).
	cmd.Env = append(secret.Environ(os.Environ()), "WAYMARK_SOCKET="+c.paths.Socket)
	cmd.Stdout, cmd.Stderr = logf, logf // stdin is /dev/null
	cmd.SysProcAttr = detached()
	if err := cmd.Start(); err != nil {
		return 0, nil, 0, err
	}
	exited := make(chan error, 1)
	go func() { // exits when the daemon exits; it reaps the daemon in a long-lived client
		exited <- cmd.Wait()
	}()
	return start, exited, cmd.Process.Pid, nil
}

// tail returns what the log holds past offset, at most its last 2 KB.
func tail(path string, offset int64) string {
	f, err := os.Open(path)
	if err != nil {
		return "(" + err.Error() + ")"
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size()-offset > 2048 {
		offset = fi.Size() - 2048
	}
	f.Seek(offset, io.SeekStart)
	b, _ := io.ReadAll(io.LimitReader(f, 4096))
	if s := strings.TrimSpace(string(b)); s != "" {
		return s
	}
	return "(nothing)"
}

func (c *Client) notice(format string, args ...any) {
	if c.opts.Stderr != nil {
		fmt.Fprintf(c.opts.Stderr, format+"\n", args...)
	}
}
