package main_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/internal/demo"
)

// TestScripts runs the README's examples as a new user types them. Each
// file in testdata/script is a testscript (txtar): waymark commands with
// what they must print and exit with, against a demo shop of the
// script's own on loopback ($SHOP) and the real Chromium, and, where it
// matters, what reached the shop (orders, carts, sends to the script's own
// pages under $SHOP/www/).
//
// Every script talks to one daemon, so one browser serves them all; each
// script is a session of its own (WAYMARK_SESSION is the script's name)
// and the scripts run in parallel. The daemon is started here, before the
// scripts, so that no script's folder (its TMPDIR, its HOME) is the
// daemon's: a script's folder goes when the script ends.
//
// Commands a script has beside testscript's own:
//
//	waymark ARGS...   run this checkout's waymark; "! waymark" expects a failure
//	status N          the last waymark exited N
//	grab NAME REGEXP  $NAME is REGEXP's first group in the last stdout (a ref, a path)
//	perm MODE FILE    FILE's permission bits are MODE (octal)
//	orders N          the shop took N orders
//	carts N           N of the shop's visitors have something in their cart
//	sends N           the script's own pages got N requests other than GET
//	modelcalls N      the model at $MODEL_URL was called N times
//
// $MODEL_URL is an OpenAI-compatible model on loopback whose every answer
// is the script's model.json; a script sets OPENAI_BASE_URL=$MODEL_URL to
// use it (else the rules model runs, as with no key).
func TestScripts(t *testing.T) {
	chrome := browsertest.Chrome(t) // skips, or fails under WAYMARK_REQUIRE_BROWSER=1
	t.Parallel()
	env := []string{
		"WAYMARK_SOCKET=" + filepath.Join(sockDir, "scripts.sock"), // stopped by TestMain
		"WAYMARK_BROWSER=" + chrome,
		"WAYMARK_BROWSER_ARGS=" + strings.Join(browsertest.GuardArgs, "\n"),
	}
	start := exec.Command(binPath, "daemon", "restart")
	start.Env = append(append(os.Environ(), env...), "XDG_STATE_HOME="+filepath.Join(sockDir, "scripts-state"))
	if out, err := start.CombinedOutput(); err != nil {
		t.Fatalf("waymark daemon restart: %v\n%s", err, out)
	}
	testscript.Run(t, testscript.Params{
		Dir:                filepath.Join("testdata", "script"),
		RequireUniqueNames: true,
		Setup: func(e *testscript.Env) error {
			e.Vars = append(e.Vars, env...)
			work := e.WorkDir
			e.Vars = append(e.Vars,
				"WAYMARK_SESSION="+filepath.Base(work), // script-NAME
				"HOME="+filepath.Join(work, "home"),
				"XDG_CONFIG_HOME="+filepath.Join(work, "home", ".config"),
				"XDG_STATE_HOME="+filepath.Join(work, "state"),
			)
			sh := newScriptShop(work)
			srv := httptest.NewServer(sh)
			e.Defer(srv.Close)
			e.Defer(func() { // the session, not the shared daemon
				c := exec.Command(binPath, "close")
				c.Env = e.Vars
				_ = c.Run()
			})
			model := newScriptModel(work)
			msrv := httptest.NewServer(model)
			e.Defer(msrv.Close)
			e.Setenv("MODEL_URL", msrv.URL+"/v1")
			e.Values[modelKey{}] = model
			e.Setenv("SHOP", srv.URL)
			e.Setenv("SHOP_HOST", strings.TrimPrefix(srv.URL, "http://")) // as a user types it
			e.Values[shopKey{}] = sh
			e.Values[lastKey{}] = new(int)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"waymark": cmdWaymark,
			"status":  cmdStatus,
			"grab":    cmdGrab,
			"perm":    cmdPerm,
			"orders":  shopCount(func(s *scriptShop) int { return len(s.site.Orders()) }),
			"carts":   shopCount((*scriptShop).carts),
			"sends":   shopCount(func(s *scriptShop) int { return int(s.sends.Load()) }),
			"modelcalls": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 1 {
					ts.Fatalf("usage: modelcalls N")
				}
				want, err := strconv.Atoi(args[0])
				ts.Check(err)
				if got := int(ts.Value(modelKey{}).(*scriptModel).calls.Load()); got != want {
					ts.Fatalf("the model was called %d times, want %d", got, want)
				}
			},
		},
	})
}

type (
	shopKey  struct{}
	modelKey struct{}
	lastKey  struct{} // *int: the last waymark's exit status
)

// scriptShop is the demo shop, and under /www/ the files of the script's
// own www folder, counting the requests to them that are not GET.
type scriptShop struct {
	site  *demo.Site
	www   http.Handler
	sends atomic.Int64
}

func newScriptShop(work string) *scriptShop {
	return &scriptShop{site: demo.New(nil), www: http.StripPrefix("/www/", http.FileServer(http.Dir(filepath.Join(work, "www"))))}
}

func (s *scriptShop) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !strings.HasPrefix(r.URL.Path, "/www/") {
		s.site.ServeHTTP(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		s.sends.Add(1)
		fmt.Fprintf(w, "<!doctype html><title>Sent</title><h1>Sent %s</h1>", r.Method)
		return
	}
	s.www.ServeHTTP(w, r)
}

func (s *scriptShop) carts() int {
	n := 0
	for _, sid := range s.site.Sessions() {
		if len(s.site.Session(sid).Cart) > 0 {
			n++
		}
	}
	return n
}

func cmdWaymark(ts *testscript.TestScript, neg bool, args []string) {
	err := ts.Exec(binPath, args...)
	code := 0
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		ts.Fatalf("waymark: %v", err)
	}
	*ts.Value(lastKey{}).(*int) = code
	switch {
	case neg && code == 0:
		ts.Fatalf("waymark succeeded, and the script wants it to fail")
	case !neg && code != 0:
		ts.Fatalf("waymark exited %d", code)
	}
}

func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: status N")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	if got := *ts.Value(lastKey{}).(*int); got != want {
		ts.Fatalf("waymark exited %d, want %d", got, want)
	}
}

func cmdGrab(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: grab NAME REGEXP")
	}
	re, err := regexp.Compile("(?m)" + args[1])
	ts.Check(err)
	m := re.FindStringSubmatch(ts.ReadFile("stdout"))
	if len(m) < 2 {
		ts.Fatalf("no match for %q (with a group) in stdout", args[1])
	}
	ts.Setenv(args[0], m[1])
}

func cmdPerm(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: perm MODE FILE")
	}
	want, err := strconv.ParseUint(args[0], 8, 32)
	ts.Check(err)
	fi, err := os.Stat(ts.MkAbs(args[1]))
	ts.Check(err)
	if got := fi.Mode().Perm(); got != os.FileMode(want) {
		ts.Fatalf("%s is mode %04o, want %04o", args[1], got, want)
	}
}

// shopCount is a command "NAME N" that checks a count the shop kept.
// An action answers once what it did is known, and a request it set going
// may still be on its way (the rest of its settle goes on in the daemon):
// a count below N is read again until it is N, for up to 5 s. A count
// never goes down, so one above N fails at once.
func shopCount(count func(*scriptShop) int) func(ts *testscript.TestScript, neg bool, args []string) {
	return func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: COUNT N")
		}
		want, err := strconv.Atoi(args[0])
		ts.Check(err)
		shop := ts.Value(shopKey{}).(*scriptShop)
		got := count(shop)
		for deadline := time.Now().Add(5 * time.Second); got < want && time.Now().Before(deadline); got = count(shop) {
			time.Sleep(20 * time.Millisecond)
		}
		if got != want {
			ts.Fatalf("the shop counted %d, want %d", got, want)
		}
	}
}

// scriptModel is an OpenAI-compatible server whose every answer is the
// file model.json in the script's folder, counting the calls.
type scriptModel struct {
	answer string // path of model.json
	calls  atomic.Int64
}

func newScriptModel(work string) *scriptModel {
	return &scriptModel{answer: filepath.Join(work, "model.json")}
}

func (m *scriptModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m.calls.Add(1)
	answer, err := os.ReadFile(m.answer)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": "c1", "object": "chat.completion", "model": "script",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": string(answer)}}},
		"usage": map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
	})
}
