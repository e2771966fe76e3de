package driver_test

import (
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// The text of a field is empty whatever is typed in it: the read says
// where the value is, and keeps the text as it is.
func TestGetTextOfFieldNamesGetValue(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": `<!doctype html><label>City <input id=c></label><label>About <textarea id=a></textarea></label><p id=p>Hello</p>`})
	open(t, s, ctx, srv.URL)
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: "css=#c", Value: "Oslo"})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: "css=#a", Value: "Hi there"})
	for _, target := range []string{"css=#c", "css=#a"} {
		got, err := s.Get(ctx, calls.GetRequest{What: "text", Target: target})
		if err != nil {
			t.Fatal(err)
		}
		if got.Value != "" || !strings.Contains(got.Note, `"waymark get value `+target+`"`) {
			t.Fatalf("get text %s = %+v", target, got)
		}
	}
	if got, _ := s.Get(ctx, calls.GetRequest{What: "value", Target: "css=#c"}); got == nil || got.Value != "Oslo" {
		t.Fatalf("get value = %+v", got)
	}
	if got, _ := s.Get(ctx, calls.GetRequest{What: "text", Target: "css=#p"}); got == nil || got.Value != "Hello" || got.Note != "" {
		t.Fatalf("get text of a paragraph = %+v", got)
	}
}
