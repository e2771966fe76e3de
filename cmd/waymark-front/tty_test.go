package main_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// On a terminal, what a page wrote reaches the person's screen escaped,
// through the front (the daemon writes for a terminal it only hears of)
// as through waymark-full: a page's escape sequence would otherwise clear
// the screen, retitle the window or write the clipboard (OSC 52). The
// terminal is a real one, a pseudo-terminal that script(1) opens.
func TestFrontOnATerminalEscapesPageText(t *testing.T) {
	t.Parallel()
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("no script(1) to open a terminal (util-linux)")
	}
	c := newCLI(t, stamped, "tty")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>Tty</title><p id=evil>x</p>
<script>
const esc = String.fromCharCode(27), bel = String.fromCharCode(7);
document.getElementById('evil').textContent = 'before' + esc + ']52;c;ZXZpbA==' + bel + esc + '[2J' + String.fromCharCode(0x9b) + '31mafter';
document.title = 'T' + esc + ']0;owned' + bel;
</script>`)
	}))
	t.Cleanup(srv.Close)
	if r := c.full("--session", "tty", "open", srv.URL+"/"); r.code != 0 {
		t.Fatalf("open: %+v", r)
	}
	defer c.full("--session", "tty", "close")

	onTerminal := func(bin string, args ...string) []byte {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		// script runs the line with sh -c: every word here is plain.
		cmd := c.command(ctx, script, "-q", "-e", "-c", bin+" "+strings.Join(args, " "), "/dev/null")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s %v on a terminal: %v\n%q", bin, args, err, out.String())
		}
		return out.Bytes()
	}
	for _, bin := range []string{c.in.front, c.in.full} {
		for _, args := range [][]string{
			{"--session", "tty", "get", "text", "css=#evil"},
			{"--session", "tty", "get", "title"},
			{"--session", "tty", "snapshot"},
		} {
			out := onTerminal(bin, args...)
			if i := bytes.IndexAny(out, "\x1b\x07\u009b"); i >= 0 {
				t.Errorf("%s %v wrote a control character to the terminal at %d:\n%q", bin, args, i, out)
			}
			if args[2] == "get" && args[3] == "text" && !bytes.Contains(out, []byte(`before\x1b]52;c;ZXZpbA==\x07\x1b[2J\x9b31mafter`)) {
				t.Errorf("%s %v: the text is not there, escaped:\n%q", bin, args, out)
			}
		}
	}
	// Off a terminal the same text comes back as the page wrote it.
	if r := c.inDaemon("--session", "tty", "get", "text", "css=#evil"); !strings.Contains(r.stdout, "before\x1b]52;c;") {
		t.Errorf("get text off a terminal: %+v", r)
	}
}
