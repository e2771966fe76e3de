package e2e

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
)

// cliNetlog is a NetLog of one request, reset before any answer, cut
// short.
const cliNetlog = `{"constants":{
 "logEventTypes":{"REQUEST_ALIVE":1,"URL_REQUEST_START_JOB":2,"HTTP_TRANSACTION_SEND_REQUEST_HEADERS":3},
 "logSourceType":{"URL_REQUEST":1},
 "netError":{"ERR_CONNECTION_RESET":-101},
 "timeTickOffset":"1700000000000","logCaptureMode":"Default"},
"events":[
{"phase":1,"source":{"id":7,"type":1},"time":"101","type":2,"params":{"method":"GET","url":"https://shop.test/cart?session=abc123","initiator":"https://shop.test","request_type":"other"}},
{"phase":0,"source":{"id":7,"type":1},"time":"140","type":3,"params":{"headers":["Host: shop.test"]}},
{"phase":2,"source":{"id":7,"type":1},"time":"190","type":2,"params":{"net_error":-101}},
{"phase":2,"source":{"id":7,"type":1},"time":"191","type":1,"params":{"net_error":-101}},
`

func TestNetlogSummarize(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	path := dir + "/n.json"
	if err := os.WriteFile(path, []byte(cliNetlog), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr, _ := runMain(t, context.Background(), &clitest.FakeCaller{Reply: clitest.PageReply}, nil, "netlog", "summarize", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"https://shop.test/cart?session", "ERR_CONNECTION_RESET before any answer", "cut short"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "abc123") {
		t.Errorf("the query value is printed:\n%s", stdout)
	}
	if !strings.Contains(stderr, "cut short") {
		t.Errorf("stderr %q, want a warning that the log is cut", stderr)
	}

	if err := os.WriteFile(dir+"/bad.json", []byte(`{"hello":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr, _ = runMain(t, context.Background(), &clitest.FakeCaller{Reply: clitest.PageReply}, nil, "netlog", "summarize", dir+"/bad.json")
	if code != 2 || !strings.Contains(stderr, "NetLog") {
		t.Errorf("not a NetLog: exit %d, %s; want 2 and a hint", code, stderr)
	}
}

// TestReplayNetLogOnFailure: with [evidence] netlog = "on-failure", a
// replay stopped by a goto that could not open asks the daemon for the
// NetLog of the step's span and shows its line; with the default (off),
// it asks nothing.
func TestReplayNetLogOnFailure(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	path := dir + "/r.json"
	if err := os.WriteFile(path, []byte(clitest.CheckoutRoutine), 0o644); err != nil {
		t.Fatal(err)
	}
	const brief = "GET http://shop.test/checkout: ERR_CONNECTION_RESET before any answer, after the request was sent (TLS 1.3, h2)"
	for _, tc := range []struct {
		name, file string
		want       bool
	}{
		{name: "on-failure", file: "[evidence]\nnetlog = \"on-failure\"\n", want: true},
		{name: "off", file: "", want: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var asked []calls.NetLogRequest
			fc := &clitest.FakeCaller{Reply: func(method string, params any) (any, error) {
				switch method {
				case calls.MethodOpen:
					return nil, calls.Errorf(calls.ErrNavigation, "", "net::ERR_CONNECTION_RESET")
				case calls.MethodNetLog:
					asked = append(asked, params.(calls.NetLogRequest))
					return calls.NetLogResult{Brief: brief}, nil
				}
				return clitest.PageReply(method, params)
			}}
			env := map[string]string{"PW": "pw-123456"}
			code, stdout, stderr, _ := runMainConfig(t, context.Background(), fc, env, clitest.LoadFile(t, tc.file, nil),
				"replay", path, "--var", "email=a@b.c", "--secret", "password=env:PW", "--json")
			if code == 0 {
				t.Fatalf("exit 0 for a goto that failed: %s", stderr)
			}
			got := strings.Contains(stdout, `"netlog":"`+brief)
			if got != tc.want || (len(asked) == 1) != tc.want {
				t.Fatalf("netlog in the step: %v, asked %v; want %v\n%s", got, asked, tc.want, stdout)
			}
			if tc.want && (asked[0].SinceUnixMS == 0 || asked[0].UntilUnixMS < asked[0].SinceUnixMS) {
				t.Errorf("span %+v", asked[0])
			}
		})
	}
}

// TestTestNetLogOnFailure: with [evidence] netlog = "on-failure", a test
// step whose open fails carries the NetLog's line and its summary file.
func TestTestNetLogOnFailure(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	plan := dir + "/plan.yaml"
	if err := os.WriteFile(plan, []byte(clitest.CLIPlan), 0o644); err != nil {
		t.Fatal(err)
	}
	const brief = "GET http://shop.test/products: ERR_CONNECTION_REFUSED connecting"
	fc := &clitest.FakeCaller{Reply: func(method string, params any) (any, error) {
		switch method {
		case calls.MethodOpen:
			return nil, calls.Errorf(calls.ErrNavigation, "", "net::ERR_CONNECTION_RESET")
		case calls.MethodNetLog:
			return calls.NetLogResult{Brief: brief, Markdown: "# NetLog summary\n\n" + brief + "\n"}, nil
		}
		return clitest.PageReply(method, params)
	}}
	out := dir + "/ev"
	code, stdout, stderr, _ := runMainConfig(t, context.Background(), fc, nil, clitest.LoadFile(t, "[evidence]\nnetlog = \"on-failure\"\n", nil),
		"test", plan, "--out", out, "--json")
	if code == 0 {
		t.Fatalf("exit 0 for a failed open: %s", stderr)
	}
	if !strings.Contains(stdout, `"netlog":"`+brief) || !strings.Contains(stdout, `"netlog_file":"01-title/01-netlog.md"`) {
		t.Errorf("the step lacks the NetLog's line or file:\n%s", stdout)
	}
	if b, err := os.ReadFile(out + "/01-title/01-netlog.md"); err != nil || !strings.Contains(string(b), brief) {
		t.Errorf("the summary file: %v\n%s", err, b)
	}
}
