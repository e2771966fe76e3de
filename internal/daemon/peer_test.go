package daemon_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/internal/daemon"
)

// TestCustomSocketNeverOpenToOthers watches a socket named in a shared
// folder while daemons start on it: at no moment may it be open to group
// or others (it used to be made 0600 only after it listened).
func TestCustomSocketNeverOpenToOthers(t *testing.T) {
	old := syscall.Umask(0o022) // what a user's shell has; the socket would be 0755
	defer syscall.Umask(old)
	dir := shortDir(t)
	os.Chmod(dir, 0o777)
	socket := filepath.Join(dir, "d.sock")
	p, err := daemon.PathsFor(socket)
	if err != nil {
		t.Fatal(err)
	}
	var open atomic.Int32
	var seen atomic.Int32
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // exits at stop
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if fi, err := os.Lstat(socket); err == nil {
				seen.Add(1)
				if fi.Mode().Perm()&0o077 != 0 {
					open.Add(1)
				}
			}
		}
	}()
	deadline := time.Now().Add(3 * time.Second)
	for i := 0; i < 300 && time.Now().Before(deadline); i++ {
		ln, err := daemon.Listen(p)
		if err != nil {
			t.Fatal(err)
		}
		ln.Close()
	}
	close(stop)
	wg.Wait()
	if seen.Load() == 0 {
		t.Fatal("the watcher never saw the socket")
	}
	if n := open.Load(); n > 0 {
		t.Fatalf("the socket was open to other users %d times out of %d looks", n, seen.Load())
	}
	if _, err := os.Lstat(socket); err == nil {
		t.Error("the socket is left after its listener closed")
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("files left in the folder: %v", left)
	}
}

// TestOtherUserIsRefused: a process of another user that reaches the
// socket (here, one made world-writable on purpose) gets no answer.
func TestOtherUserIsRefused(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to run a client as another user")
	}
	// A system python: one under root's home is not the other user's to run.
	py := "/usr/bin/python3"
	if _, err := os.Stat(py); err != nil {
		t.Skip("needs /usr/bin/python3 for the other user's client")
	}
	dir := shortDir(t)
	os.Chmod(dir, 0o755)
	log := &syncBuffer{}
	r := start(t, daemon.Options{Socket: filepath.Join(dir, "d.sock"), Handler: &fakeHandler{fn: echo}, Logger: jsonLogger(log)})
	os.Chmod(r.socket, 0o666)
	client := `import socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(5)
try:
    s.connect(sys.argv[1])
    s.sendall(b'{"v":"waymark.rpc/1","hello":{"binary":"x","pid":1}}\n')
    print(s.recv(4096).decode() or "EOF")
except Exception as e:
    print("ERR", e)
`
	run := func(uid uint32) string {
		cmd := exec.Command(py, "-c", client, r.socket)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: uid}}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("client as %d: %v: %s", uid, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if got := run(65534); !strings.HasPrefix(got, "EOF") && !strings.HasPrefix(got, "ERR") {
		t.Errorf("another user's client got an answer: %s", got)
	}
	if !strings.Contains(log.String(), "refused a connection") {
		t.Errorf("the refusal is not logged: %s", log.String())
	}
	if got := run(0); !strings.Contains(got, "hello") {
		t.Errorf("our own client got no hello: %s\n%s", got, log.String())
	}
}
