package daemon_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/internal/daemon"
	"github.com/waymark-dev/waymark/internal/daemon/client"
	"github.com/waymark-dev/waymark/internal/rpc"
)

// An unqueued method makes calls of its own through the server, in the
// lane of the very session its request names: queued there, it would wait
// behind itself for ever. Its calls go through an in-memory connection,
// and a cancel of its request cancels them.
func TestUnqueuedMethodCallsThroughTheServer(t *testing.T) {
	started, ended := make(chan struct{}, 1), make(chan error, 1)
	h := &fakeHandler{fn: func(ctx context.Context, session, method string, params json.RawMessage) (any, error) {
		if method == "block" {
			started <- struct{}{}
			<-ctx.Done()
			ended <- ctx.Err()
			return nil, ctx.Err()
		}
		return map[string]string{"session": session, "method": method}, nil
	}}
	run := func(ctx context.Context, dial func(context.Context) (net.Conn, error), params json.RawMessage) (any, error) {
		var inner string
		if err := json.Unmarshal(params, &inner); err != nil {
			return nil, err
		}
		c := client.New(client.Options{Dial: dial})
		defer c.Close()
		var res map[string]string
		if err := c.Call(ctx, "s", inner, nil, &res); err != nil {
			return nil, err
		}
		return res, nil
	}
	r := start(t, daemon.Options{Handler: h, Unqueued: map[string]daemon.UnqueuedFunc{"run": run}})
	rc := dialRaw(t, r.socket)

	rc.send(t, 1, "s", "run", `"echo"`)
	m := rc.read(t)
	if m.ID != 1 || m.Error != nil || string(m.Result) != `{"method":"echo","session":"s"}` {
		t.Fatalf("run: %+v", m)
	}

	rc.send(t, 2, "s", "run", `"block"`)
	<-started
	if err := rc.w.Write(&rpc.Message{ID: 2, Cancel: true}); err != nil {
		t.Fatal(err)
	}
	if m := rc.read(t); m.ID != 2 || m.Error == nil {
		t.Fatalf("run after cancel: %+v", m)
	}
	select {
	case err := <-ended:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the inner call ended with %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the inner call was not canceled")
	}
}
