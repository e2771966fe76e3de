package scripted

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/waymark-dev/waymark/pilot"
)

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper()                   {}
func (r *recorder) Error(args ...any)         { r.errs = append(r.errs, fmt.Sprint(args...)) }
func (r *recorder) Errorf(f string, a ...any) { r.errs = append(r.errs, fmt.Sprintf(f, a...)) }

func turn(p pilot.Purpose, text string) pilot.Turn {
	return pilot.Turn{Purpose: p, Messages: []pilot.Message{{Role: pilot.RoleUser, Text: text,
		Images: []pilot.Image{{MediaType: "image/png", Data: []byte{1, 2}}}}}}
}

func TestInOrder(t *testing.T) {
	ctx := context.Background()
	m := New(
		Data(pilot.PurposeAct, `{"action":"click","ref":"e5"}`),
		Text("", "hello"),
		Fail(pilot.PurposeExtract, pilot.ErrRateLimited),
	)
	r, err := m.Next(ctx, turn(pilot.PurposeAct, "click Sign in"))
	if err != nil || string(r.Data) != `{"action":"click","ref":"e5"}` {
		t.Fatalf("1: %s, %v", r.Data, err)
	}
	if r, err := m.Next(ctx, turn(pilot.PurposeDecide, "?")); err != nil || r.Text != "hello" {
		t.Fatalf("2: %q, %v", r.Text, err)
	}
	if _, err := m.Next(ctx, turn(pilot.PurposeExtract, "x")); !errors.Is(err, pilot.ErrRateLimited) {
		t.Fatalf("3: %v", err)
	}
	m.Verify(t)
}

func TestSurprises(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name  string
		steps []Step
		calls []pilot.Purpose
		fails int // failures Verify reports
	}{
		{"beyond the script", []Step{Text("", "a")}, []pilot.Purpose{pilot.PurposeAct, pilot.PurposeAct}, 1},
		{"wrong purpose", []Step{Text(pilot.PurposeAct, "a"), Text(pilot.PurposeHeal, "b")}, []pilot.Purpose{pilot.PurposeObserve, pilot.PurposeHeal}, 1},
		{"unused", []Step{Text("", "a"), Text(pilot.PurposeExtract, "b")}, []pilot.Purpose{pilot.PurposeAct}, 1},
		{"check fails", []Step{{Check: func(pilot.Turn) error { return errors.New("no fence") }}}, []pilot.Purpose{pilot.PurposeAct}, 1},
		{"all good", []Step{Text("", "a")}, []pilot.Purpose{pilot.PurposeAct}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New(tt.steps...)
			var errs int
			for _, p := range tt.calls {
				if _, err := m.Next(ctx, turn(p, "x")); errors.Is(err, ErrUnexpected) {
					errs++
				}
			}
			rec := &recorder{TB: t}
			m.Verify(rec)
			if len(rec.errs) != tt.fails {
				t.Errorf("Verify reported %d failures, want %d: %q", len(rec.errs), tt.fails, rec.errs)
			}
		})
	}
}

func TestCallsAreCopies(t *testing.T) {
	m := New(Step{Check: func(tr pilot.Turn) error {
		tr.Messages[0].Text = "changed by check"
		return nil
	}})
	in := turn(pilot.PurposeAct, "click Go")
	if _, err := m.Next(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	in.Messages[0].Text = "changed by caller"
	in.Messages[0].Images[0].Data[0] = 9
	calls := m.Calls()
	calls[0].Messages[0].Text = "changed by test"
	want := []pilot.Turn{turn(pilot.PurposeAct, "click Go")}
	if diff := cmp.Diff(want, m.Calls()); diff != "" {
		t.Errorf("Calls (-want +got):\n%s", diff)
	}
}

func TestHoldAndCancel(t *testing.T) {
	hold := make(chan struct{})
	m := New(Step{Hold: hold, Reply: pilot.Reply{Text: "late"}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := m.Next(ctx, turn(pilot.PurposeAct, "x"))
		done <- err
	}()
	time.Sleep(10 * time.Millisecond)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	m.Verify(t)
}

func TestConcurrent(t *testing.T) {
	steps := make([]Step, 50)
	for i := range steps {
		steps[i] = Text(pilot.PurposeExtract, "ok")
	}
	m := New(steps...)
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			if _, err := m.Next(context.Background(), turn(pilot.PurposeExtract, "x")); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := len(m.Calls()); n != 50 {
		t.Errorf("%d calls recorded", n)
	}
	m.Verify(t)
}
