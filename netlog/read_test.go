package netlog_test

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/netlog"
)

func TestNotANetLog(t *testing.T) {
	for _, in := range []string{`[1,2]`, `{"events":[]}`, `{"constants":{}} trailing`, `{"constants":{},"events":{}}`} {
		if _, err := netlog.Summarize(strings.NewReader(in), nil); err == nil {
			t.Errorf("Summarize(%q): no error", in)
		}
	}
}

func TestReaderWhole(t *testing.T) {
	log := strings.TrimSuffix(exampleLog[:strings.LastIndex(exampleLog, "\n")], ",") + "],\n\"polledData\":{}}\n"
	r := netlog.NewReader(strings.NewReader(log))
	n := 0
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		if ev.Source.Type != "URL_REQUEST" {
			t.Errorf("source type %q", ev.Source.Type)
		}
		n++
	}
	if n != 5 || r.Truncated() {
		t.Errorf("%d events, truncated %v; want 5, whole", n, r.Truncated())
	}
	c, err := r.Constants()
	if err != nil || c.NetError(-101) != "ERR_CONNECTION_RESET" || c.NetError(-999) != "ERR_-999" || c.Wall(100) != 1700000000100 {
		t.Errorf("constants %+v, %v", c, err)
	}
}
