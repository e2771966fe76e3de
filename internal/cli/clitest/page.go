package clitest

import (
	"sync"

	"github.com/waymark-dev/waymark/calls"
)

// PageCaller is a one-button page over the fake daemon: pressing Go shows
// "Done!".
func PageCaller() *FakeCaller {
	var mu sync.Mutex
	pressed := false
	return &FakeCaller{Reply: func(method string, params any) (any, error) {
		mu.Lock()
		defer mu.Unlock()
		text := "[page] https://go.test/ \"Go\"\n- button \"Go\" [ref=e1]"
		if pressed {
			text += "\n- text: Done!"
		}
		switch method {
		case calls.MethodSnapshot:
			return calls.Snapshot{URL: "https://go.test/", Title: "Go", Text: text}, nil
		case calls.MethodLocate:
			return calls.Evidence{Ref: "e1", Chosen: `role=button[name="Go"]`, Candidates: []calls.Candidate{{Kind: "role", Value: `role=button[name="Go"]`, Matches: 1}},
				Fingerprint: calls.Fingerprint{Tag: "button", Role: "button", Name: "Go"}}, nil
		case calls.MethodAct:
			pressed = true
			return calls.Outcome{URL: "https://go.test/"}, nil
		case calls.MethodGet:
			return calls.GetResult{Value: "https://go.test/"}, nil
		}
		return nil, nil
	}}
}
