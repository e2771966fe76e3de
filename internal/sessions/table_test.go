package sessions

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// lastCall is a calls.Caller that keeps the method and params of the last
// call and answers with a zero result.
type lastCall struct {
	method string
	params json.RawMessage
}

func (c *lastCall) Call(_ context.Context, _, method string, params, _ any) error {
	b, err := json.Marshal(params)
	if err != nil {
		return err
	}
	c.method, c.params = method, b
	return nil
}

// TestMethodTableServesSession proves that the daemon's method table and
// calls.Session are one API: every method of the interface, sent by
// calls.Remote, is served under the name it travels as, and served by the
// same method (the table's handler, run against a second Remote, sends
// that name again); and the table serves nothing the interface lacks. A
// method added to one and not the other fails here.
func TestMethodTableServesSession(t *testing.T) {
	ctx := context.Background()
	typ := reflect.TypeFor[calls.Session]()
	served := map[string]string{} // method name on the wire → Go method
	for i := range typ.NumMethod() {
		m := typ.Method(i)
		first := &lastCall{}
		fn := reflect.ValueOf(calls.Remote{Caller: first, Session: "s"}).MethodByName(m.Name)
		args := []reflect.Value{reflect.ValueOf(ctx)}
		for j := 1; j < m.Type.NumIn(); j++ {
			args = append(args, reflect.Zero(m.Type.In(j)))
		}
		if out := fn.Call(args); !out[len(out)-1].IsNil() {
			t.Fatalf("calls.Remote.%s: %v", m.Name, out[len(out)-1].Interface())
		}
		if prev, ok := served[first.method]; ok {
			t.Errorf("calls.Session.%s and .%s both travel as %q", prev, m.Name, first.method)
			continue
		}
		served[first.method] = m.Name
		handle, ok := sessionCalls[first.method]
		if !ok {
			t.Errorf("calls.Session.%s travels as %q, which the daemon's method table does not serve", m.Name, first.method)
			continue
		}
		again := &lastCall{}
		if _, err := handle(ctx, calls.Remote{Caller: again, Session: "s"}, first.params); err != nil {
			t.Errorf("the table's %q: %v", first.method, err)
			continue
		}
		if again.method != first.method || string(again.params) != string(first.params) {
			t.Errorf("the table's %q calls the method that travels as %q with %s, want calls.Session.%s with %s",
				first.method, again.method, again.params, m.Name, first.params)
		}
	}
	for method := range sessionCalls {
		if _, ok := served[method]; !ok {
			t.Errorf("the daemon's method table serves %q, which calls.Session does not declare", method)
		}
	}
}
