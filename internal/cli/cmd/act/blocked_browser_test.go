package act

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/sessions"
)

// TestClickStoppedSubmitSays: through the daemon's session manager, a
// click whose submit the browser's validation stopped says so in text
// and --json, the outline then shows the message on the field, and the
// server counts no POST.
func TestClickStoppedSubmitSays(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var posts atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.Method == http.MethodPost {
			posts.Add(1)
		}
		io.WriteString(w, `<!doctype html><title>Sign up</title><form method=post action=/sent>
<label>Email <input name=email type=email required></label><button>Send</button></form>`)
	}))
	defer srv.Close()
	m := sessions.NewShared(drivertest.Driver(t))
	defer m.Close()

	common, out, _ := clitest.NewCommon(m, false, false)
	if _, err := common.Remote().Open(ctx, calls.OpenRequest{URL: srv.URL}); err != nil {
		t.Fatal(err)
	}
	click := calls.ActRequest{Kind: calls.ActClick, Target: "text=Send", Button: "left", Count: 1}
	if err := actRun(ctx, &ActOptions{Common: common, Request: click}); err != nil {
		t.Fatal(err)
	}
	if want := "clicked; the form was not sent: 1 field is invalid: textbox \"Email\" — Please fill out this field.\n"; out.String() != want {
		t.Errorf("text:\n%q\nwant\n%q", out.String(), want)
	}
	snap, err := common.Remote().Snapshot(ctx, calls.SnapshotRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(snap.Text, `textbox "Email" [required] [invalid: Please fill out this field.]`) {
		t.Errorf("outline:\n%s", snap.Text)
	}

	jcommon, jout, _ := clitest.NewCommon(m, true, false)
	if err := actRun(ctx, &ActOptions{Common: jcommon, Request: click}); err != nil {
		t.Fatal(err)
	}
	var env struct {
		OK   bool          `json:"ok"`
		Data calls.Outcome `json:"data"`
	}
	if err := json.Unmarshal(jout.Bytes(), &env); err != nil || !env.OK || env.Data.NotSent == nil || env.Data.NotSent.Invalid[0].Name != "Email" {
		t.Errorf("json: %s (%v)", jout, err)
	}
	if n := posts.Load(); n != 0 {
		t.Fatalf("%d POSTs reached the server", n)
	}
}
