package netlog_test

import (
	"fmt"
	"strings"

	"github.com/waymark-dev/waymark/netlog"
)

// A NetLog as Chromium writes it, cut down to one request that died of a
// reset before any answer, and cut short itself (the browser crashed).
const exampleLog = `{"constants":{
 "logEventTypes":{"REQUEST_ALIVE":1,"URL_REQUEST_START_JOB":2,"HTTP_TRANSACTION_SEND_REQUEST_HEADERS":3},
 "logSourceType":{"URL_REQUEST":1},
 "logEventPhase":{"PHASE_BEGIN":1,"PHASE_END":2,"PHASE_NONE":0},
 "netError":{"ERR_CONNECTION_RESET":-101},
 "timeTickOffset":"1700000000000","logCaptureMode":"Default"},
"events":[
{"phase":1,"source":{"id":7,"type":1},"time":"100","type":1,"params":{"url":"https://shop.example/cart?session=abc123"}},
{"phase":1,"source":{"id":7,"type":1},"time":"101","type":2,"params":{"method":"GET","url":"https://shop.example/cart?session=abc123","initiator":"https://shop.example","request_type":"other"}},
{"phase":0,"source":{"id":7,"type":1},"time":"140","type":3,"params":{"headers":["Host: shop.example","Cookie: [22 bytes were stripped]"]}},
{"phase":2,"source":{"id":7,"type":1},"time":"190","type":2,"params":{"net_error":-101}},
{"phase":2,"source":{"id":7,"type":1},"time":"191","type":1,"params":{"net_error":-101}},
{"phase":0,"sour`

func ExampleSummarize() {
	s, err := netlog.Summarize(strings.NewReader(exampleLog), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	r := s.Requests[0]
	fmt.Println(r.Method, r.URL, r.Protocol, r.Error, r.Stage, *r.Timing.TotalMS, "ms")
	fmt.Println("cut short:", s.Truncated)
	fmt.Println(s.Brief())
	// Output:
	// GET https://shop.example/cart?session h1 ERR_CONNECTION_RESET request 90 ms
	// cut short: true
	// GET https://shop.example/cart?session: ERR_CONNECTION_RESET before any answer, after the request was sent (h1)
}
