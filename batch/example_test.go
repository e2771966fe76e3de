package batch_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/batch"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
)

// Example runs a batch of three rows on an embedded server. The rows'
// browser is a stand-in here (WorkerOptions.Replay); the daemon's worker
// leases sessions of a real browser (Endpoint.Caller) and replays the
// routine in them.
func Example() {
	dir, _ := os.MkdirTemp("", "batch-example")
	defer os.RemoveAll(dir)
	srv, err := batch.StartServer(batch.ServerOptions{Dir: dir}) // in-process only
	if err != nil {
		panic(err)
	}
	defer srv.Shutdown()
	nc, _ := srv.Connect()
	defer nc.Close()
	ctx := context.Background()
	e, err := batch.Open(ctx, nc, batch.EngineOptions{})
	if err != nil {
		panic(err)
	}

	r := json.RawMessage(`{"format":"waymark.routine/1","name":"greet","version":1,
		"variables":[{"name":"email"},{"name":"password","secret":true}],
		"steps":[{"id":"open","kind":"goto","url":"https://shop.example/account"}]}`)
	// A row names its secret; the worker that runs it reads the value.
	rows, _ := batch.ReadRows(strings.NewReader(`{"email":"ann@example.com","password":{"secret":"env:SHOP_PW"}}
{"email":"bo@example.com","password":{"secret":"env:SHOP_PW"}}
{"email":"cy@example.com","password":{"secret":"env:SHOP_PW"}}
`), false)
	spec, err := e.Submit(ctx, batch.Spec{ID: "greet-1", Routine: r, Key: "email", Retries: 2}, rows)
	if err != nil {
		panic(err)
	}

	pool, _ := e.NewPool("w1", []batch.Endpoint{{Name: "stand-in", Caller: standIn{}, Max: 2}})
	defer pool.Close(ctx)
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	go e.Work(wctx, batch.WorkerOptions{Name: "w1", Parallel: 2, Pool: pool,
		Getenv: func(string) string { return "s3cret-pass" }, // the worker's environment
		Replay: func(ctx context.Context, d calls.Session, r *routine.Routine, o replay.Options) (*replay.Result, error) {
			return &replay.Result{Status: replay.StatusOK}, nil
		}})

	for {
		st, _ := e.Status(ctx, spec.ID)
		if st.State != batch.StateRunning {
			fmt.Println(st.State, st.OK, "ok of", st.Total)
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	res, _ := e.Results(ctx, spec.ID)
	for _, r := range res {
		fmt.Println(r.N, r.Key, r.Status)
	}
	// Output:
	// done 3 ok of 3
	// 1 ann@example.com ok
	// 2 bo@example.com ok
	// 3 cy@example.com ok
}

// standIn answers a browser's calls with nothing.
type standIn struct{}

func (standIn) Call(context.Context, string, string, any, any) error { return nil }
