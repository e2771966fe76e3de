package openai

import (
	"testing"

	"github.com/waymark-dev/waymark/internal/model/modelhttp/modelhttptest"
)

// reply is one scripted HTTP answer of the fake API.
type reply = modelhttptest.Reply

// newFakeAPI starts a fake Chat Completions API that answers with script and records what
// it was sent. A request past the end of the script fails the test.
func newFakeAPI(t *testing.T, script ...reply) *modelhttptest.FakeAPI {
	t.Helper()
	return modelhttptest.NewFakeAPI(t, `{"error":{"message":"unscripted","type":"server_error"}}`, script...)
}
