package pilotflags

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/waymark-dev/waymark/internal/cli/clitest"
)

// openPTY opens a pseudo-terminal: the master, on which the test types, and
// the slave, which the command reads as its terminal. Linux only, with the
// standard library's ioctls, so no module is added for a test.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Fatalf("unlock the pty: %v", e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Fatalf("name the pty: %v", e)
	}
	s, err := os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return m, s
}

// TestRevealSecretsTypedAtTerminal: a bare --secret NAME (form fill, sheet
// fill, doc insert, dialog accept) is typed at the terminal: the value
// typed is what the request carries under NAME, exactly as NAME=env:VAR
// would carry it, and the command writes it to neither of its outputs (the
// prompt names the secret only). The line is typed before the prompt reads
// it; the terminal holds it until then.
func TestRevealSecretsTypedAtTerminal(t *testing.T) {
	const typed = "correct horse battery staple"
	for _, one := range []bool{false, true} {
		master, slave := openPTY(t)
		c, out, errOut := clitest.NewCommon(&clitest.FakeCaller{}, false, false)
		c.IO.In = slave
		c.Getenv = func(k string) string { return map[string]string{"CARD": "4111"}[k] }
		if _, err := master.WriteString(typed + "\n"); err != nil {
			t.Fatal(err)
		}
		var got map[string]string
		if one {
			name, value, err := RevealSecret(c, "pin")
			if err != nil {
				t.Fatal(err)
			}
			got = map[string]string{name: value}
		} else {
			var err error
			if got, err = RevealSecrets(c, []string{"card=env:CARD", "pin"}); err != nil {
				t.Fatal(err)
			}
			if got["card"] != "4111" {
				t.Errorf("card from the environment = %q, want 4111", got["card"])
			}
		}
		if got["pin"] != typed {
			t.Errorf("one=%v: pin = %q, want what was typed, %q", one, got["pin"], typed)
		}
		if !strings.Contains(errOut.String(), "pin: ") {
			t.Errorf("one=%v: no prompt naming pin on stderr: %q", one, errOut)
		}
		for what, s := range map[string]string{"stdout": out.String(), "stderr": errOut.String()} {
			if strings.Contains(s, typed) || strings.Contains(s, "4111") {
				t.Errorf("one=%v: %s holds a secret's value: %q", one, what, s)
			}
		}
	}
}
