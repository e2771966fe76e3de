package batch

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/internal/demo"
	"github.com/waymark-dev/waymark/internal/sessions"
)

// workerEnv, when set in a test binary's environment, makes it a worker
// process (TestMain) instead of a test run: the fault test starts two and
// kills one by its pid.
const workerEnv = "WAYMARK_BATCH_TEST_WORKER"

// workerMain is a worker process: it connects to the NATS URLs in
// WAYMARK_BATCH_TEST_NATS, says "ready" on stdout and works until killed.
func workerMain() int {
	name := os.Getenv(workerEnv)
	parallel, _ := strconv.Atoi(os.Getenv("WAYMARK_BATCH_TEST_PARALLEL"))
	ackWait, _ := time.ParseDuration(os.Getenv("WAYMARK_BATCH_TEST_ACKWAIT"))
	nc, err := nats.Connect(os.Getenv("WAYMARK_BATCH_TEST_NATS"), nats.MaxReconnects(-1), nats.ReconnectWait(100*time.Millisecond))
	if err != nil {
		fmt.Fprintln(os.Stderr, "connect:", err)
		return 1
	}
	ctx := context.Background()
	e, err := Open(ctx, nc, EngineOptions{Replicas: 3, AckWait: ackWait})
	if err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		return 1
	}
	// A browser of the worker process's own: the test kills the process,
	// and a browser in another process cannot be shared.
	m := sessions.New(driver.Options{ExecPath: os.Getenv("WAYMARK_BATCH_TEST_CHROME"), Args: browsertest.GuardArgs})
	defer m.Close()
	pool, err := e.NewPool(name, []Endpoint{{Name: "local-" + name, Caller: m, Max: parallel}})
	if err != nil {
		fmt.Fprintln(os.Stderr, "pool:", err)
		return 1
	}
	fmt.Println("ready")
	if err := e.Work(ctx, WorkerOptions{Name: name, Parallel: parallel, Pool: pool}); err != nil {
		fmt.Fprintln(os.Stderr, "work:", err)
		return 1
	}
	return 0
}

func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// startCluster starts three embedded servers as a cluster on loopback
// and returns their client URLs and store folders.
func startCluster(t testing.TB) ([]string, []string) {
	t.Helper()
	routes := make([]string, 3)
	for i := range routes {
		routes[i] = "127.0.0.1:" + strconv.Itoa(freePort(t))
	}
	urls := make([]string, 3)
	dirs := make([]string, 3)
	for i := range dirs {
		dirs[i] = t.TempDir()
	}
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range 3 {
		wg.Add(1)
		go func() { // a node waits for its routes to start
			defer wg.Done()
			var others []string
			for j, r := range routes {
				if j != i {
					others = append(others, r)
				}
			}
			srv, err := StartServer(ServerOptions{Dir: dirs[i], Name: fmt.Sprintf("n%d", i), Listen: "127.0.0.1:0",
				Cluster: &ClusterOptions{Name: "wm", Listen: routes[i], Routes: others}})
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
			t.Fatal(err)
		}
	}
	return urls, dirs
}

// openCluster opens the engine once the cluster has elected its leader.
func openCluster(t testing.TB, urls []string, ackWait time.Duration) *Engine {
	t.Helper()
	nc, err := nats.Connect(strings.Join(urls, ","), nats.MaxReconnects(-1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	deadline := time.Now().Add(60 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		e, err := Open(ctx, nc, EngineOptions{Replicas: 3, AckWait: ackWait})
		cancel()
		if err == nil {
			return e
		}
		if time.Now().After(deadline) {
			t.Fatalf("the cluster never took the stream: %v", err)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// holdCheckout serves the demo site, and holds the reply to the n-th order
// (placed on the server) until released: its worker is then between the
// press and the result.
type holdCheckout struct {
	site    http.Handler
	n       int32
	seen    atomic.Int32
	held    chan string // the held order's email
	release chan struct{}
}

func (h *holdCheckout) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/checkout" || h.seen.Add(1) != h.n {
		h.site.ServeHTTP(w, r)
		return
	}
	rec := httptest.NewRecorder()
	h.site.ServeHTTP(rec, r)
	h.held <- r.Form.Get("email")
	select {
	case <-h.release:
	case <-r.Context().Done():
		return
	}
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	_, _ = w.Write(rec.Body.Bytes())
}

// TestKillAWorkerOnACluster: a batch of checkouts on a three-node NATS
// cluster, two worker processes; one is killed by its pid right after it
// placed an order. Every row ends exactly once; the row whose order was
// placed comes back uncertain and is never placed twice; the demo shop
// holds exactly one order per row that pressed.
func TestKillAWorkerOnACluster(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts a NATS cluster and two worker processes with a browser each")
	}
	const rows = 16
	const ackWait = 3 * time.Second
	chrome := browsertest.Chrome(t)
	urls, dirs := startCluster(t)
	e := openCluster(t, urls, ackWait)

	site := demo.New(nil)
	hold := &holdCheckout{site: site, n: 4, held: make(chan string, 1), release: make(chan struct{})}
	srv := httptest.NewServer(hold)
	t.Cleanup(srv.Close)
	t.Cleanup(func() {
		select {
		case <-hold.release:
		default:
			close(hold.release)
		}
	})
	m := browserManager(t)
	rt := recordCheckout(t, m, srv.URL)
	_ = m.Close()

	ctx := context.Background()
	spec, err := e.Submit(ctx, Spec{Routine: rt, Submits: "allow", Retries: 1}, rowsOf(rows, func(i int, f map[string]json.RawMessage) {
		f["email"] = json.RawMessage(fmt.Sprintf(`"row-%d@example.com"`, i+1))
		f["password"] = json.RawMessage(`{"secret":"env:DEMO_PW"}`)
	}))
	if err != nil {
		t.Fatal(err)
	}

	procs := map[string]*exec.Cmd{}
	for _, name := range []string{"w1", "w2"} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), workerEnv+"="+name, "WAYMARK_BATCH_TEST_NATS="+strings.Join(urls, ","),
			"WAYMARK_BATCH_TEST_PARALLEL=2", "WAYMARK_BATCH_TEST_ACKWAIT="+ackWait.String(),
			"WAYMARK_BATCH_TEST_CHROME="+chrome, "DEMO_PW="+demoPW)
		cmd.Stderr = os.Stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		line, _ := bufio.NewReader(out).ReadString('\n')
		if strings.TrimSpace(line) != "ready" {
			t.Fatalf("worker %s said %q", name, line)
		}
		procs[name] = cmd
	}

	var email string
	select {
	case email = <-hold.held:
	case <-time.After(3 * time.Minute):
		t.Fatal("no order was placed")
	}
	n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(email, "row-"), "@example.com"))
	j, ok := (&worker{e: e}).journaled(ctx, rowKeyName(spec.ID, n))
	if !ok {
		t.Fatalf("row %d placed an order with no journal", n)
	}
	victim := procs[j.Worker]
	if err := victim.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = victim.Wait()
	close(hold.release)
	t.Logf("killed %s (pid %d) after row %d pressed %q", j.Worker, victim.Process.Pid, n, j.Control)

	st := waitDone(t, e, spec.ID, 5*time.Minute)
	res, err := e.Results(ctx, spec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != rows || st.Done != rows {
		t.Fatalf("%d results, status %+v", len(res), st)
	}
	orders := map[string]int{}
	for _, o := range site.Orders() {
		orders[o.Email]++
	}
	for _, r := range res {
		em := fmt.Sprintf("row-%d@example.com", r.N)
		switch {
		case r.N == n:
			if r.Status != StatusUncertain || r.Step != "place" {
				t.Errorf("the held row %d = %s at %q (%s)", r.N, r.Status, r.Step, r.Message)
			}
			if orders[em] != 1 {
				t.Errorf("the held row %d has %d orders", r.N, orders[em])
			}
		case r.Status == StatusOK:
			if orders[em] != 1 {
				t.Errorf("row %d (%s) has %d orders", r.N, r.Status, orders[em])
			}
		case r.Status == StatusUncertain:
			// Another row of the killed worker: its press was journaled
			// before it went, and the worker may have died on either side
			// of the send. Uncertain says just that; never two.
			if orders[em] > 1 {
				t.Errorf("row %d (%s) has %d orders", r.N, r.Status, orders[em])
			}
		default:
			t.Errorf("row %d: %s %s: %s", r.N, r.Status, r.Cause, r.Message)
		}
	}
	if len(site.Orders()) > rows {
		t.Errorf("%d orders for %d rows", len(site.Orders()), rows)
	}
	// The password reached the site from the workers' environment, and
	// no node's store holds a byte of it.
	for _, o := range site.Orders() {
		if o.Password != demoPW {
			t.Fatalf("an order's password is %q", o.Password)
		}
	}
	for _, d := range dirs {
		assertNotInFiles(t, d, demoPW)
	}
}

const demoPW = "long-enough-pass"

// assertNotInFiles fails if any file under dir holds value or either half
// of it.
func assertNotInFiles(t *testing.T, dir, value string) {
	t.Helper()
	files := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		for _, part := range []string{value, value[:len(value)/2], value[len(value)/2:]} {
			if bytes.Contains(data, []byte(part)) {
				t.Errorf("%s holds %q", path, part)
			}
		}
		return nil
	})
	if err != nil || files == 0 {
		t.Fatalf("walk %s: %v, %d files", dir, err, files)
	}
}
