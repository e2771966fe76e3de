package calls_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/waymark-dev/waymark/calls"
)

// echoCaller stands for the daemon client: it prints each call and answers
// an open with the page the URL names.
type echoCaller struct{}

func (echoCaller) Call(_ context.Context, session, method string, params, result any) error {
	p, _ := json.Marshal(params)
	fmt.Printf("%s %s %s\n", session, method, p)
	if req, ok := params.(calls.OpenRequest); ok {
		b, _ := json.Marshal(calls.PageInfo{URL: "https://" + req.URL + "/", Title: "Example"})
		return json.Unmarshal(b, result)
	}
	return nil
}

// A front reaches a session through a Caller (the daemon client, or the
// daemon's handler in-process) and calls typed methods: the method name
// and the result type travel together.
func ExampleRemote() {
	var s calls.Session = calls.Remote{Caller: echoCaller{}, Session: "shop"}
	page, err := s.Open(context.Background(), calls.OpenRequest{URL: "example.com"})
	if err != nil {
		panic(err)
	}
	fmt.Println(page.URL, page.Title)
	if _, err := s.Back(context.Background()); err != nil {
		panic(err)
	}
	// Output:
	// shop open {"url":"example.com"}
	// https://example.com/ Example
	// shop back {}
}
