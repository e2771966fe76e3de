package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/internal/cli"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/batch"
	"github.com/waymark-dev/waymark/internal/batchd"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/iostreams"
	"github.com/waymark-dev/waymark/internal/config"
	"github.com/waymark-dev/waymark/internal/sessions"
	"github.com/waymark-dev/waymark/replay"
)

// The runners of the step × runner matrix (matrix_test.go) besides
// replay.Run: the CLI, the MCP server, the daemon's batch service, and
// `waymark worker` on a NATS cluster.

// mainDeps runs commands with no config file, dialing c.
func mainDeps(c cmdutil.Caller, env map[string]string) cli.Deps {
	return cli.Deps{
		Config: func(flags []config.Flag) (*config.Config, error) {
			return config.Load(config.LoadOptions{Getenv: func(k string) string { return env[k] }, Flags: flags})
		},
		Dial: func(context.Context, cmdutil.GlobalOptions, *config.Config, bool) (cmdutil.Caller, error) {
			return c, nil
		},
		Version: "v0.0.0-matrix",
		Getenv:  func(k string) string { return env[k] },
	}
}

// cliReplay runs `waymark replay FILE --json` over the session manager.
func cliReplay(t *testing.T, ctx context.Context, m *sessions.Manager, c *matrixCase) matrixRun {
	args := []string{"replay", c.file, "--json", "--no-model", "--hand=false", "--session", "matrix-cli-" + c.name, "--submits", c.submits}
	for k, v := range c.vars {
		args = append(args, "--var", k+"="+v)
	}
	ios, _, out, errOut := iostreams.Test()
	code := cli.MainWith(ctx, args, ios, mainDeps(noClose{m}, nil))
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	var env struct {
		OK    bool `json:"ok"`
		Data  replay.Result
		Error *struct{ Code, Message string }
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &env); err != nil {
		t.Fatalf("exit %d, no envelope: %v\n%s\n%s", code, err, out, errOut)
	}
	return matrixOf(&env.Data)
}

// noClose keeps MainWith from closing the shared manager (it closes a
// Caller that is an io.Closer when the command ends).
type noClose struct{ m *sessions.Manager }

func (n noClose) Call(ctx context.Context, session, method string, params, result any) error {
	return n.m.Call(ctx, session, method, params, result)
}

// mcpReplay calls the MCP server's replay tool with the routine inline.
func mcpReplay(t *testing.T, ctx context.Context, m *sessions.Manager, c *matrixCase) matrixRun {
	deps := mainDeps(noClose{m}, nil)
	if c.submits == replay.SubmitsAllow { // the person's setting for the server
		deps.Config = clitest.LoadFile(t, "[mcp]\nsubmits = \"allow\"\n", nil)
	}
	raw, vars := c.raw, c.vars
	cs := mcpMain(t, deps, "--session", "matrix-mcp-"+c.name)
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil {
		t.Fatal(err)
	}
	v := map[string]any{}
	for k, s := range vars {
		v[k] = s
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "replay", Arguments: map[string]any{"routine": obj, "vars": v}})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Content[0].(*sdk.TextContent).Text
	_, full, ok := strings.Cut(text, "\nresult: ")
	if !ok {
		t.Fatalf("the replay tool answered %q", text)
	}
	var rr replay.Result
	if err := json.Unmarshal([]byte(full), &rr); err != nil {
		t.Fatalf("%v: %s", err, full)
	}
	return matrixOf(&rr)
}

// mcpMain runs `waymark mcp ARGS` through MainWith on pipes and returns
// a connected client; the server stops when the test ends.
func mcpMain(t *testing.T, deps cli.Deps, args ...string) *sdk.ClientSession {
	t.Helper()
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	ios := iostreams.New(sr, sw, io.Discard, iostreams.Terminals{}, deps.Getenv)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() { done <- cli.MainWith(ctx, append(args, "mcp"), ios, deps) }()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, &sdk.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("waymark mcp: exit %d", code)
			}
		case <-time.After(5 * time.Second):
			t.Error("waymark mcp did not end when the client hung up")
		}
		cancel()
	})
	return cs
}

// rowOf is one batch row of vars: a list variable's rows as JSON.
func rowOf(vars map[string]string) []map[string]json.RawMessage {
	row := map[string]json.RawMessage{}
	for k, v := range vars {
		if strings.HasPrefix(v, "[") {
			row[k] = json.RawMessage(v)
			continue
		}
		b, _ := json.Marshal(v)
		row[k] = b
	}
	return []map[string]json.RawMessage{row}
}

func rowMatrix(r batch.Result) matrixRun {
	st := r.Status
	if st != batch.StatusOK {
		st = r.Status + " " + r.Cause + " at " + r.Step
	}
	return matrixRun{status: st, msg: r.Message, data: r.Data}
}

// embeddedRow runs one row on the daemon's batch service: its embedded
// server, its worker, its local browser (the manager).
func embeddedRow(t *testing.T, ctx context.Context, m *sessions.Manager, c *matrixCase) matrixRun {
	svc := batchd.New(batchd.Options{Dir: t.TempDir(), Local: noClose{m}, Worker: "matrix"})
	defer func() { _ = svc.Close() }()
	p, _ := json.Marshal(batchd.SubmitParams{Spec: batch.Spec{Routine: c.raw, Submits: c.submits}, Rows: rowOf(c.vars), Parallel: 1})
	st, err := svc.Handle(ctx, batchd.MethodSubmit, p)
	if err != nil {
		t.Fatal(err)
	}
	id := st.(*batch.Status).ID
	for {
		q, _ := json.Marshal(batchd.ResultsParams{ID: id})
		got, err := svc.Handle(ctx, batchd.MethodResults, q)
		if err != nil {
			t.Fatal(err)
		}
		if rep := got.(batchd.ResultsReply); rep.Status.State != batch.StateRunning && len(rep.Results) == 1 {
			return rowMatrix(rep.Results[0])
		}
		select {
		case <-ctx.Done():
			t.Fatal("the row never ended")
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// clusterWorker is `waymark worker` (the command, with its own session
// manager attached to the browser's DevTools port) taking rows from a
// three-node NATS cluster.
type clusterWorker struct {
	e      *batch.Engine
	cancel context.CancelFunc
	done   chan struct{}
	log    fmt.Stringer
}

func startClusterWorker(t *testing.T, ctx context.Context, port string) *clusterWorker {
	urls := natsCluster(t)
	w := &clusterWorker{e: clusterEngine(t, urls), done: make(chan struct{})}
	wctx, cancel := context.WithCancel(ctx)
	w.cancel = cancel
	ios, _, _, errOut := iostreams.Test()
	w.log = errOut
	go func() { // exits when stop cancels wctx
		defer close(w.done)
		cli.MainWith(wctx, []string{"worker", "--nats", urls[1], "--cdp", port, "--parallel", "1", "--name", "matrix-worker"}, ios, mainDeps(nil, nil))
	}()
	t.Cleanup(func() { w.cancel(); <-w.done })
	return w
}

func (w *clusterWorker) stop(t *testing.T) {
	w.cancel()
	<-w.done
	if t.Failed() {
		t.Logf("the worker said:\n%s", w.log)
	}
}

// row runs the case as one row and waits for its result.
func (w *clusterWorker) row(t *testing.T, ctx context.Context, c *matrixCase) matrixRun {
	spec, err := w.e.Submit(ctx, batch.Spec{Routine: c.raw, Submits: c.submits}, rowOf(c.vars))
	if err != nil {
		t.Fatal(err)
	}
	for {
		st, err := w.e.Status(ctx, spec.ID)
		if err != nil {
			t.Fatal(err)
		}
		if st.State != batch.StateRunning {
			res, err := w.e.Results(ctx, spec.ID)
			if err != nil || len(res) != 1 {
				t.Fatalf("results %v %v", res, err)
			}
			return rowMatrix(res[0])
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the row never ended; the worker said:\n%s", w.log)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// natsCluster starts three embedded servers as a cluster on loopback and
// returns their client URLs. A node that does not start (a route port
// taken between freePort and the listen, under load) has the cluster
// started again on other ports, once.
func natsCluster(t *testing.T) []string {
	t.Helper()
	urls, err := tryCluster(t)
	if err != nil {
		t.Logf("the cluster did not start (%v); again on other ports", err)
		urls, err = tryCluster(t)
	}
	if err != nil {
		t.Fatal(err)
	}
	return urls
}

func tryCluster(t *testing.T) ([]string, error) {
	routes := make([]string, 3)
	for i := range routes {
		routes[i] = "127.0.0.1:" + freePort(t)
	}
	urls := make([]string, 3)
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() { // a node waits for its routes
			defer wg.Done()
			var others []string
			for j, r := range routes {
				if j != i {
					others = append(others, r)
				}
			}
			srv, err := batch.StartServer(batch.ServerOptions{Dir: t.TempDir(), Name: fmt.Sprintf("m%d", i), Listen: "127.0.0.1:0",
				Cluster: &batch.ClusterOptions{Name: "matrix", Listen: routes[i], Routes: others}})
			if err != nil {
				errs[i] = err
				return
			}
			t.Cleanup(srv.Shutdown)
			urls[i] = srv.ClientURL()
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return urls, nil
}

func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, p, _ := strings.Cut(ln.Addr().String(), ":")
	return p
}

// clusterEngine opens the engine once the cluster has elected a leader.
func clusterEngine(t *testing.T, urls []string) *batch.Engine {
	t.Helper()
	nc, err := batchd.Connect(config.Batch{NATS: strings.Join(urls, ",")}, "matrix")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	for end := time.Now().Add(60 * time.Second); ; time.Sleep(300 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		e, err := batch.Open(ctx, nc, batch.EngineOptions{Replicas: 3})
		cancel()
		if err == nil {
			return e
		}
		if time.Now().After(end) {
			t.Fatalf("the cluster never took the stream: %v", err)
		}
	}
}
