package demo

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/rpc"
)

// fakeShop answers the calls of the tour the way a daemon on the demo shop
// would; fail makes one method fail.
func fakeShop(fail map[string]error) *clitest.FakeCaller {
	snaps := 0
	return &clitest.FakeCaller{Reply: func(method string, params any) (any, error) {
		if err := fail[method]; err != nil {
			return nil, err
		}
		switch method {
		case calls.MethodOpen:
			return calls.PageInfo{URL: params.(calls.OpenRequest).URL, Title: "Products"}, nil
		case calls.MethodSnapshot:
			snaps++
			if snaps == 1 {
				return calls.Snapshot{Text: "[page] Products\n- link \"Home\" [ref=e1]\n- link \"Cart (0)\" [ref=e2]\n- link \"Blue \\\"mug\\\"\" [ref=e3]", Refs: 3}, nil
			}
			return calls.Snapshot{Text: "[page] Blue mug\n- spinbutton \"Quantity\" [ref=e7] value=\"1\"\n- button \"Add to cart\" [ref=e8]", Refs: 2}, nil
		case calls.MethodGet:
			r := params.(calls.GetRequest)
			switch {
			case r.What == "title":
				return calls.GetResult{Value: "Blue mug — Demo shop"}, nil
			case r.Target == "e3":
				return calls.GetResult{Value: "/products/blue-mug", Found: true}, nil
			case r.Target == "e2":
				return calls.GetResult{Value: "/cart", Found: true}, nil
			}
			return calls.GetResult{Value: "/", Found: true}, nil
		case calls.MethodAct:
			return calls.Outcome{URL: "http://127.0.0.1:1234/products/blue-mug", Title: "Blue mug"}, nil
		case calls.MethodScreenshot:
			return calls.Image{Data: clitest.PNG}, nil
		}
		return nil, nil
	}}
}

// fakeServe serves nothing, says it is ready, and waits for ctx; it
// records that it ended.
func fakeServe(ended chan<- struct{}) func(ctx context.Context, addr string, ready func(string)) error {
	return func(ctx context.Context, addr string, ready func(string)) error {
		defer close(ended)
		if addr != "127.0.0.1:0" {
			return errors.New("want a free loopback port, got " + addr)
		}
		ready("http://127.0.0.1:1234/")
		<-ctx.Done()
		return ctx.Err()
	}
}

func TestDemoRun(t *testing.T) {
	fc := fakeShop(nil)
	c, out, errOut := clitest.NewCommon(fc, false, false)
	c.Session = demoSession
	ended := make(chan struct{})
	opts := &DemoOptions{Common: c, ServeDemo: fakeServe(ended), ReadyTimeout: time.Second}
	if err := demoRun(context.Background(), opts); err != nil {
		t.Fatalf("err = %v\nstderr:\n%s", err, errOut)
	}
	select {
	case <-ended:
	default:
		t.Error("the demo site still runs")
	}

	wantCalls := []string{"open", "snapshot", "get", "get", "get", "act", "snapshot", "act", "act", "wait", "get", "screenshot", rpc.MethodSessionClose}
	if diff := cmp.Diff(wantCalls, fc.Methods()); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	for _, call := range fc.Calls {
		if call.Session != demoSession {
			t.Errorf("%s in session %q", call.Method, call.Session)
		}
	}
	if got := fc.Calls[0].Params.(calls.OpenRequest).URL; got != "http://127.0.0.1:1234/products" {
		t.Errorf("opened %q", got)
	}
	if diff := cmp.Diff(calls.ActRequest{Kind: "click", Target: "@e3"}, fc.Calls[5].Params); diff != "" {
		t.Errorf("product click (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(calls.ActRequest{Kind: "fill", Target: "@e7", Value: "1"}, fc.Calls[7].Params); diff != "" {
		t.Errorf("quantity fill (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(calls.ActRequest{Kind: "click", Target: `role=button[name="Add to cart"]`}, fc.Calls[8].Params); diff != "" {
		t.Errorf("add to cart (-want +got):\n%s", diff)
	}

	// stdout: the two looks and the screenshot's path, which exists.
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	shot := lines[len(lines)-1]
	if b, err := os.ReadFile(shot); err != nil || string(b) != string(clitest.PNG) {
		t.Errorf("screenshot %q: %v", shot, err)
	}
	t.Cleanup(func() { os.RemoveAll(strings.TrimSuffix(shot, "/cart.png")) })
	if !strings.Contains(out.String(), `- link "Blue \"mug\"" [ref=e3]`) {
		t.Errorf("stdout lacks the look:\n%s", out)
	}
	for _, want := range []string{
		"✓ opened http://127.0.0.1:1234/products \"Products\"",
		"(link \"Blue \\\"mug\\\"\")",
		"✓ the page shows \"Cart (1)\"",
		"✓ title is \"Blue mug — Demo shop\"",
		"✓ closed session \"demo\"",
	} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

func TestDemoRunFails(t *testing.T) {
	fc := fakeShop(map[string]error{calls.MethodWait: calls.Errorf(calls.ErrTimeout, "", "timed out after 10s waiting for text \"Cart (1)\"")})
	c, _, errOut := clitest.NewCommon(fc, false, false)
	ended := make(chan struct{})
	err := demoRun(context.Background(), &DemoOptions{Common: c, ServeDemo: fakeServe(ended), ReadyTimeout: time.Second})
	if !errors.Is(err, calls.ErrTimeout) || cmdutil.ExitCode(err) != cmdutil.ExitFailed {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(errOut.String(), "✗ wait for the cart: timed out") {
		t.Errorf("stderr:\n%s", errOut)
	}
	if m := fc.Methods(); m[len(m)-1] != rpc.MethodSessionClose {
		t.Errorf("the session was not closed: %v", m)
	}
	<-ended
}

func TestDemoSiteFails(t *testing.T) {
	fc := fakeShop(nil)
	c, _, _ := clitest.NewCommon(fc, false, false)
	serve := func(context.Context, string, func(string)) error { return errors.New("address in use") }
	err := demoRun(context.Background(), &DemoOptions{Common: c, ServeDemo: serve, ReadyTimeout: time.Second})
	if err == nil || !strings.Contains(err.Error(), "address in use") {
		t.Errorf("err = %v", err)
	}
	if len(fc.Calls) != 0 {
		t.Errorf("called the daemon: %v", fc.Methods())
	}
}

func TestDemoServeRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	c, out, _ := clitest.NewCommon(&clitest.FakeCaller{}, false, false)
	serve := func(ctx context.Context, addr string, ready func(string)) error {
		ready("http://" + addr + "/")
		cancel() // as Ctrl-C would
		<-ctx.Done()
		return ctx.Err()
	}
	if err := demoServeRun(ctx, &DemoServeOptions{Common: c, ServeDemo: serve, Addr: "127.0.0.1:8080"}); err != nil {
		t.Errorf("interrupted serve: %v, want nil", err)
	}
	if out.String() != "http://127.0.0.1:8080/\n" {
		t.Errorf("stdout %q", out)
	}
}
