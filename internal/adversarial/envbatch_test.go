package adversarial

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/routine"
)

// Issue 27, items 4 and 5, attacked as a user meets them: the two real
// binaries (the thin front "waymark" and "waymark-full"), a daemon they
// start, a plain shell's environment. The front must not carry a secret
// the command does not name into the daemon's memory; a batch whose rows
// name {"secret": "env:PIN"} must run on the default engine, its PINs
// reaching the page and nothing else, wait as needs_secret when a
// restarted daemon has lost them, and never place a --key order twice
// because the runtime folder was emptied.

// envUser is one user's install and folders: a home with its own runtime
// and state folders, so the daemon is found on its default socket, as a
// user's is.
type envUser struct {
	t           *testing.T
	front, full string
	home, run   string
	env         []string
}

// newEnvUser builds the binaries (stamped alike, so the front hands
// commands to the daemon) and makes the user's folders; the daemon is
// stopped when the test ends.
func newEnvUser(t *testing.T) *envUser {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binaries and runs a daemon")
	}
	chrome := browsertest.Chrome(t)
	home, err := os.MkdirTemp("", "wmeb") // short: the socket's path has 103 bytes
	if err != nil {
		t.Fatal(err)
	}
	bin := envBinaries(t)
	u := &envUser{t: t, front: filepath.Join(bin, "waymark"), full: filepath.Join(bin, "waymark-full"), home: home, run: filepath.Join(home, "run")}
	if err := os.MkdirAll(u.run, 0o700); err != nil {
		t.Fatal(err)
	}
	u.env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_RUNTIME_DIR=" + u.run,
		"XDG_STATE_HOME=" + filepath.Join(home, "state"), "XDG_CONFIG_HOME=" + filepath.Join(home, "cfg"),
		"XDG_CACHE_HOME=" + filepath.Join(home, "cache"), "WAYMARK_BROWSER=" + chrome,
		"WAYMARK_BROWSER_ARGS=" + strings.Join(browsertest.GuardArgs, "\n")}
	if g := os.Getenv("GOCOVERDIR"); g != "" {
		u.env = append(u.env, "GOCOVERDIR="+g)
	}
	t.Cleanup(func() {
		u.runIn(u.full, nil, "daemon", "stop")
		os.RemoveAll(home)
	})
	return u
}

var (
	envBinOnce sync.Once
	envBinDir  string
	envBinErr  error
)

// envBinaries builds the two binaries once for the package's tests (a
// link of waymark-full is seconds of CPU; each test built its own pair)
// and returns their folder; closeEnvBinaries removes it. The binaries are
// only read: every user's folders and daemon stay its own.
func envBinaries(t *testing.T) string {
	t.Helper()
	envBinOnce.Do(func() {
		if envBinDir, envBinErr = os.MkdirTemp("", "wmbin"); envBinErr != nil {
			return
		}
		const stamp = "-X github.com/waymark-dev/waymark/internal/version.stamp=v0.0.0-envbatch"
		for _, b := range []struct{ out, pkg string }{{"waymark", "cmd/waymark-front"}, {"waymark-full", "cmd/waymark"}} {
			cmd := exec.Command("go", "build", "-ldflags", stamp, "-o", filepath.Join(envBinDir, b.out), "github.com/waymark-dev/waymark/"+b.pkg)
			if out, err := cmd.CombinedOutput(); err != nil {
				envBinErr = fmt.Errorf("build %s: %v\n%s", b.out, err, out)
				return
			}
		}
	})
	if envBinErr != nil {
		t.Fatal(envBinErr)
	}
	return envBinDir
}

func closeEnvBinaries() {
	if envBinDir != "" {
		os.RemoveAll(envBinDir)
	}
}

type envResult struct {
	code           int
	stdout, stderr string
}

// runIn runs bin with the user's environment and extra.
func (u *envUser) runIn(bin string, extra []string, args ...string) envResult {
	u.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(append([]string(nil), u.env...), extra...)
	cmd.Dir = u.home
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		u.t.Fatalf("run %v: %v", args, err)
	}
	return envResult{code, out.String(), errb.String()}
}

// daemonPID is the pid of the user's daemon.
func (u *envUser) daemonPID() int {
	u.t.Helper()
	var env struct{ Data struct{ PID int } }
	r := u.runIn(u.full, nil, "--json", "daemon", "status")
	if err := json.Unmarshal([]byte(r.stdout), &env); err != nil || env.Data.PID == 0 {
		u.t.Fatalf("daemon status: %+v", r)
	}
	return env.Data.PID
}

// waitExited waits until the process pid has ended (or is a zombie no
// one reaps).
func waitExited(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return
		}
		// The state follows the command's closing parenthesis.
		if f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:])); len(f) > 0 && f[0] == "Z" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d still runs a minute after it was stopped", pid)
		}
	}
}

// batchStatus reads a batch's status through the CLI.
func (u *envUser) batchStatus(id string) struct {
	State                                       string
	Total, Done, OK, Failed, Uncertain, Skipped int
	NeedsSecret                                 int `json:"needs_secret"`
} {
	u.t.Helper()
	var env struct {
		Data struct {
			State                                       string
			Total, Done, OK, Failed, Uncertain, Skipped int
			NeedsSecret                                 int `json:"needs_secret"`
		}
	}
	r := u.runIn(u.full, nil, "--json", "batch", "status", id)
	if err := json.Unmarshal([]byte(r.stdout), &env); err != nil {
		u.t.Fatalf("batch status: %+v", r)
	}
	return env.Data
}

func randomHex(t *testing.T) string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b[:])
}

// memHas reports whether needle is anywhere in the readable memory of
// process pid (its heap, stacks, data): what the process holds, whether
// or not it still uses it.
func memHas(t *testing.T, pid int, needle string) bool {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/PID/mem")
	}
	maps, err := os.ReadFile(fmt.Sprintf("/proc/%d/maps", pid))
	if err != nil {
		t.Fatal(err)
	}
	mem, err := os.Open(fmt.Sprintf("/proc/%d/mem", pid))
	if err != nil {
		t.Skipf("cannot read the daemon's memory: %v", err)
	}
	defer mem.Close()
	n := []byte(needle)
	buf := make([]byte, 4<<20)
	sc := bufio.NewScanner(bytes.NewReader(maps))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 || f[1][0] != 'r' || len(f) >= 6 && (f[5] == "[vvar]" || f[5] == "[vsyscall]") {
			continue
		}
		lo, hi, _ := strings.Cut(f[0], "-")
		start, err1 := strconv.ParseUint(lo, 16, 64)
		end, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 != nil || err2 != nil {
			continue
		}
		for off := start; off < end; {
			size := min(uint64(len(buf)), end-off)
			got, err := mem.ReadAt(buf[:size], int64(off))
			if got > 0 && bytes.Contains(buf[:got], n) {
				return true
			}
			if err != nil || got == 0 {
				break
			}
			// Overlap the chunks by the needle's length.
			if adv := uint64(got); adv > uint64(len(n)) && off+adv < end {
				off += adv - uint64(len(n))
			} else {
				off += adv
			}
		}
	}
	return false
}

// notInFiles fails when value is in any file under dir: a results file,
// the JetStream store (the stream's messages, the journal and key
// buckets), the daemon's log, the runtime folder.
func notInFiles(t *testing.T, dir, value string) {
	t.Helper()
	files := 0
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		if filepath.Base(filepath.Dir(p)) == "bin" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		files++
		if bytes.Contains(b, []byte(value)) {
			t.Errorf("%s holds the secret", p)
		}
		return nil
	})
	if files == 0 {
		t.Fatalf("no files under %s to search", dir)
	}
}

// The front sends a daemon the variables the command names, and waymark's
// settings: an unrelated token in the caller's shell never reaches the
// daemon's memory. A control value the front does send (NO_COLOR) is
// found there by the same search, so the search can see what a request
// leaves; a --secret name=env:VAR still works through the front.
// On the code before issue 27, the front sent os.Environ(): the token was
// in the daemon's memory.
func TestFrontSendsNoUnrelatedSecret(t *testing.T) {
	t.Parallel()
	u := newEnvUser(t)
	srv := NewServer(t, map[string]string{
		"/": `<!doctype html><title>Shop</title><form method=post action=/order>
<label>PIN <input name=pin id=pin autocomplete=off></label><button>Place order</button></form>`,
		"/order": `<title>Thanks</title><p>Thank you</p>`,
	})
	if r := u.runIn(u.full, nil, "open", srv.URL("/")); r.code != 0 { // starts the daemon
		t.Fatalf("open: %+v", r)
	}
	pid := u.daemonPID()
	token, control := "tok"+randomHex(t), "ctl"+randomHex(t)
	r := u.runIn(u.front, []string{"UNRELATED_API_TOKEN=" + token, "OPENAI_API_KEY=sk-" + token, "NO_COLOR=" + control}, "get", "url")
	if r.code != 0 || r.stdout != srv.URL("/")+"\n" {
		t.Fatalf("get url through the front: %+v", r)
	}
	if pid2 := u.daemonPID(); pid2 != pid {
		t.Fatalf("the daemon restarted (%d, then %d)", pid, pid2)
	}
	if !memHas(t, pid, control) {
		t.Fatal("the daemon's memory does not show the control value the front sent: the search sees nothing")
	}
	if memHas(t, pid, token) {
		t.Errorf("an unrelated token of the caller's shell is in the daemon's memory")
	}

	// --secret NAME=env:VAR through the front: the PIN reaches the page.
	pin := "pin" + randomHex(t)
	var form struct {
		Data struct{ Fields []struct{ Key, Label string } }
	}
	if r := u.runIn(u.front, nil, "--json", "form"); json.Unmarshal([]byte(r.stdout), &form) != nil || len(form.Data.Fields) == 0 {
		t.Fatalf("form: %+v", r)
	}
	answers := filepath.Join(u.home, "answers.json")
	if err := os.WriteFile(answers, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := u.runIn(u.front, []string{"SHOP_PIN=" + pin}, "form", "fill", answers, "--secret", form.Data.Fields[0].Key+"=env:SHOP_PIN"); r.code != 0 {
		t.Fatalf("form fill --secret through the front: %+v", r)
	}
	if r := u.runIn(u.front, nil, "click", "text=Place order"); r.code != 0 {
		t.Fatalf("click: %+v", r)
	}
	got := 0
	for _, q := range srv.Requests() {
		if q.Method == "POST" && q.Path == "/order" && strings.Contains(q.Body, "pin="+pin) {
			got++
		}
	}
	if got != 1 {
		t.Errorf("the server got the PIN in %d order POSTs, want 1: %+v", got, srv.Requests())
	}
}

// orderShop is a shop whose order form takes an email and a PIN; the
// form shows "Ready" 1.5 s after it loads (a row takes that long), and
// the order page thanks.
func orderShop(t *testing.T) *Server {
	return NewServer(t, map[string]string{
		"/": `<!doctype html><title>Order</title><p id=st>Loading</p>
<form method=post action=/order>
<label>Email <input name=email id=email></label>
<label>PIN <input name=pin id=pin type=password autocomplete=off></label>
<button>Place order</button></form>
<script>setTimeout(() => { document.getElementById('st').textContent = 'Ready' }, 1500)</script>`,
		"/order": `<!doctype html><title>Thanks</title><p>Thank you</p>`,
	})
}

// orderRoutine records, in the package's browser, the routine a user
// records on orderShop: wait for Ready, fill the email and the PIN (a
// secret), press Place order (the approved submit). The recording's own
// order is forgotten.
func orderRoutine(t *testing.T, srv *Server) string { return orderRoutineWith(t, srv, true) }

// orderRoutineWith is orderRoutine; secretPin false makes the PIN a plain
// input, for a case about something else than secrets.
func orderRoutineWith(t *testing.T, srv *Server, secretPin bool) string {
	t.Helper()
	s, ctx := session(t)
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil {
		t.Fatal(err)
	}
	r := routine.Routine{Format: routine.Format, Name: "order", Version: 1,
		Variables: []routine.Variable{{Name: "email"}, {Name: "pin", Secret: secretPin}},
		Steps: []routine.Step{{ID: "open", Kind: routine.KindGoto, URL: srv.URL("/")},
			{ID: "ready", Kind: routine.KindVerify, Check: &routine.Check{Text: "Ready"}}}}
	pinFrom := "secret"
	if !secretPin {
		pinFrom = "input"
	}
	for _, a := range []struct {
		id, op, target, value string
		v                     *routine.Value
	}{
		{"email", calls.ActFill, "css=#email", "rec@example.com", &routine.Value{From: "input", Slot: "email"}},
		{"pin", calls.ActFill, "css=#pin", "0000", &routine.Value{From: pinFrom, Slot: "pin"}},
		{"place", calls.ActClick, "text=Place order", "", nil},
	} {
		r.Steps = append(r.Steps, recordStep(t, ctx, s, a.id, a.op, a.target, a.value, a.v))
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := routine.Parse(b); err != nil {
		t.Fatalf("the routine: %v\n%s", err, b)
	}
	p := filepath.Join(t.TempDir(), "order.json")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	srv.Reset()
	return p
}

// recordStep acts on target in s and returns the step a recorder writes:
// the locator and evidence the live page gives.
func recordStep(t *testing.T, ctx context.Context, s *driver.Session, id, op, target, value string, v *routine.Value) routine.Step {
	t.Helper()
	ev, err := s.Locate(ctx, calls.LocateRequest{Target: target})
	if err != nil {
		t.Fatalf("locate %s: %v", target, err)
	}
	tg := routine.TargetOf(ev)
	if _, err := s.Act(ctx, calls.ActRequest{Kind: op, Target: tg.Locator, Value: value}); err != nil {
		t.Fatalf("record %s: %v", id, err)
	}
	return routine.Step{ID: id, Kind: routine.KindAct, Op: op, Target: tg, Value: v}
}

// writeRows writes n rows, row i naming its PIN as env:PIN_i, and
// returns the file and the PINs (with their variables) for the shell.
func writeRows(t *testing.T, dir string, n int) (string, []string, []string) {
	t.Helper()
	var rows strings.Builder
	var pins, env []string
	for i := 1; i <= n; i++ {
		pin := fmt.Sprintf("%d%s", i, randomHex(t)[:10])
		pins = append(pins, pin)
		env = append(env, fmt.Sprintf("PIN_%d=%s", i, pin))
		fmt.Fprintf(&rows, `{"email": "row%d@example.com", "pin": {"secret": "env:PIN_%d"}}`+"\n", i, i)
	}
	p := filepath.Join(dir, "rows.jsonl")
	if err := os.WriteFile(p, []byte(rows.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return p, pins, env
}

// ordersWith counts the order POSTs that carried pin.
func ordersWith(srv *Server, pin string) int {
	n := 0
	for _, q := range srv.Requests() {
		if q.Method == "POST" && q.Path == "/order" && strings.Contains(q.Body, "pin="+pin) {
			n++
		}
	}
	return n
}

// The README's composition, from a plain shell: a routine that types a
// PIN, run as a batch on the default engine (the daemon's, whose
// environment is clean) with the PINs in the shell. Each row's PIN
// reaches the page (the order POST the loopback server receives) and
// nothing else: not the results file, not the JetStream store (the
// stream's messages and the journal and key buckets are files of it), not
// the daemon's log, not the runtime folder.
// On the code before issue 27 every row failed: the daemon read env:PIN_1
// from its own environment, and no order reached the server.
func TestBatchEnvSecretsReachOnlyThePage(t *testing.T) {
	t.Parallel()
	u := newEnvUser(t)
	srv := orderShop(t)
	rt := orderRoutine(t, srv)
	rows, pins, env := writeRows(t, u.home, 3)
	out := filepath.Join(u.home, "results.jsonl")
	r := u.runIn(u.front, env, "batch", rt, "--inputs", rows, "--out", out, "--key", "email", "--allow-submit")
	if r.code != 0 {
		t.Fatalf("batch: %+v", r)
	}
	for i, pin := range pins {
		if n := ordersWith(srv, pin); n != 1 {
			t.Errorf("row %d: the server got %d orders with its PIN, want 1", i+1, n)
		}
	}
	res, err := os.ReadFile(out)
	if err != nil || strings.Count(string(res), `"status":"ok"`) != 3 {
		t.Fatalf("results: %s, %v", res, err)
	}
	for _, pin := range pins {
		notInFiles(t, u.home, pin)
	}
}

// A daemon stopped and started again mid-batch has lost the PINs the
// batch command handed it (it keeps them in memory only): the rows left
// wait as needs_secret, none fails and none runs without its PIN; then
// "waymark batch resume ID" from the shell hands them over and every row
// places its order exactly once.
// On the code before issue 27 the rows failed (cause input) at once.
func TestBatchRestartHoldsRowsForTheirSecrets(t *testing.T) {
	t.Parallel()
	u := newEnvUser(t)
	srv := orderShop(t)
	rt := orderRoutine(t, srv)
	const n = 4
	rows, pins, env := writeRows(t, u.home, n)
	// The first row places its order; the second is held at its page
	// until the daemon has stopped (its grace ends with the row not
	// pressed), so the rows left are known whatever the machine's load.
	held, release := srv.HoldAfter(t, "/", 1)
	r := u.runIn(u.front, env, "batch", rt, "--inputs", rows, "--parallel", "1", "--allow-submit", "--detach", "--id", "restart-1")
	if r.code != 0 {
		t.Fatalf("batch: %+v", r)
	}
	select {
	case <-held:
	case <-time.After(90 * time.Second):
		t.Fatal("the second row never opened its page")
	}
	pid := u.daemonPID()
	if r := u.runIn(u.full, nil, "daemon", "stop"); r.code != 0 {
		t.Fatalf("daemon stop: %+v", r)
	}
	waitExited(t, pid) // stop asks; the daemon ends its rows' grace first
	release()
	deadline := time.Now().Add(90 * time.Second)
	st := u.batchStatus("restart-1")
	for st.State == "running" {
		if time.Now().After(deadline) {
			t.Fatalf("the batch never settled: %+v", st)
		}
		time.Sleep(200 * time.Millisecond)
		st = u.batchStatus("restart-1")
	}
	if st.State != "needs_secret" || st.OK != 1 || st.NeedsSecret != n-1 || st.Failed != 0 || st.Uncertain != 0 {
		t.Fatalf("after the restart: %+v; want rows needing their secret, none failed", st)
	}
	before := 0
	for _, pin := range pins {
		before += ordersWith(srv, pin)
	}
	if before != st.OK {
		t.Errorf("%d orders reached the server for %d rows ok", before, st.OK)
	}
	if r := u.runIn(u.front, env, "batch", "resume", "restart-1"); r.code != 0 {
		t.Fatalf("batch resume: %+v", r)
	}
	if st := u.batchStatus("restart-1"); st.State != "done" || st.OK != n {
		t.Fatalf("after resume: %+v", st)
	}
	for i, pin := range pins {
		if c := ordersWith(srv, pin); c != 1 {
			t.Errorf("row %d: %d orders, want 1", i+1, c)
		}
		notInFiles(t, u.home, pin)
	}
}

// Logout and reboot empty the runtime folder. The --key memory (and the
// journals) must not live there: the same --key row run again after the
// folder was emptied is skipped, not ordered a second time.
// On the code before issue 27 the store sat beside the socket in the
// runtime folder: the second run placed a second order.
func TestKeyMemorySurvivesAnEmptiedRuntimeFolder(t *testing.T) {
	t.Parallel()
	u := newEnvUser(t)
	srv := orderShop(t)
	rt := orderRoutineWith(t, srv, false) // no secret: this case is the store's
	pins := []string{"7" + randomHex(t)[:8]}
	rows := filepath.Join(u.home, "rows.jsonl")
	if err := os.WriteFile(rows, []byte(`{"email": "key@example.com", "pin": "`+pins[0]+`"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func() envResult {
		return u.runIn(u.front, nil, "--json", "batch", rt, "--inputs", rows, "--key", "email", "--allow-submit")
	}
	if r := run(); r.code != 0 {
		t.Fatalf("first batch: %+v", r)
	}
	if c := ordersWith(srv, pins[0]); c != 1 {
		t.Fatalf("first batch: %d orders", c)
	}
	if r := u.runIn(u.full, nil, "daemon", "stop"); r.code != 0 {
		t.Fatalf("daemon stop: %+v", r)
	}
	entries, _ := os.ReadDir(u.run)
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(u.run, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	r := run()
	if c := ordersWith(srv, pins[0]); c != 1 {
		t.Fatalf("after the runtime folder was emptied the same --key row placed %d orders: %+v", c, r)
	}
	if r.code != 0 || !strings.Contains(r.stdout, `"skipped":1`) {
		t.Errorf("second batch: %+v", r)
	}
}

// The README's composition as users write it first: a routine around
// `form fill --secret` (a form step whose PIN answer is the secret), run
// as a batch with the PINs in the shell. The PIN reaches the page in the
// order POST, and each row orders once.
//
// It depends on lane contract of issue 27 (item 6): the batch worker's
// journaling wrapper hides the session's form calls today, so a form
// step in a batch row stops with "this driver cannot fill forms". It
// fails on this branch until that lane is merged; the act/fill routine
// above (TestBatchEnvSecretsReachOnlyThePage) is this lane's part.
func TestBatchFormStepWithEnvSecret(t *testing.T) {
	t.Parallel()
	u := newEnvUser(t)
	srv := orderShop(t)
	s, ctx := session(t)
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil {
		t.Fatal(err)
	}
	form, err := s.Form(ctx, calls.FormRequest{})
	if err != nil {
		t.Fatal(err)
	}
	answers := map[string]*routine.Value{}
	for _, f := range form.Fields {
		switch {
		case strings.Contains(f.Key, "email"):
			answers[f.Key] = &routine.Value{From: "input", Slot: "email"}
		case strings.Contains(f.Key, "pin"):
			answers[f.Key] = &routine.Value{From: "secret", Slot: "pin"}
		}
	}
	if len(answers) != 2 {
		t.Fatalf("form keys: %+v", form.Fields)
	}
	r := routine.Routine{Format: routine.Format, Name: "order-form", Version: 1,
		Variables: []routine.Variable{{Name: "email"}, {Name: "pin", Secret: true}},
		Steps: []routine.Step{{ID: "open", Kind: routine.KindGoto, URL: srv.URL("/")},
			{ID: "ready", Kind: routine.KindVerify, Check: &routine.Check{Text: "Ready"}},
			{ID: "form", Kind: routine.KindForm, Answers: answers}}}
	r.Steps = append(r.Steps, recordStep(t, ctx, s, "place", calls.ActClick, "text=Place order", "", nil))
	b, _ := json.Marshal(r)
	if _, err := routine.Parse(b); err != nil {
		t.Fatalf("the routine: %v\n%s", err, b)
	}
	rt := filepath.Join(u.home, "order-form.json")
	if err := os.WriteFile(rt, b, 0o600); err != nil {
		t.Fatal(err)
	}
	srv.Reset()
	rows, pins, env := writeRows(t, u.home, 2)
	if r := u.runIn(u.front, env, "batch", rt, "--inputs", rows, "--allow-submit"); r.code != 0 {
		t.Fatalf("batch: %+v", r)
	}
	for i, pin := range pins {
		if c := ordersWith(srv, pin); c != 1 {
			t.Errorf("row %d: %d orders with its PIN, want 1", i+1, c)
		}
		notInFiles(t, u.home, pin)
	}
}
