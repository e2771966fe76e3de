package cli

import (
	"context"
	"os"
	"strings"
	"testing"
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
	code, stdout, stderr, _ := runMain(t, context.Background(), &fakeCaller{reply: pageReply}, nil, "netlog", "summarize", path)
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
	code, _, stderr, _ = runMain(t, context.Background(), &fakeCaller{reply: pageReply}, nil, "netlog", "summarize", dir+"/bad.json")
	if code != 2 || !strings.Contains(stderr, "NetLog") {
		t.Errorf("not a NetLog: exit %d, %s; want 2 and a hint", code, stderr)
	}
}
