package wait_test

import (
	"context"
	"fmt"
	"time"

	"github.com/waymark-dev/waymark/internal/wait"
)

func ExampleSleep() {
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the caller went away: the hour is not waited
	if err := wait.Sleep(ctx, time.Hour); err != nil {
		fmt.Println("stopped:", err)
	}
	fmt.Println(wait.Sleep(context.Background(), 0)) // nothing to wait
	// Output:
	// stopped: context canceled
	// <nil>
}

func ExampleClosed() {
	drained := make(chan struct{})
	fmt.Println(wait.Closed(drained, 0)) // still open, and no time to wait
	close(drained)
	fmt.Println(wait.Closed(drained, time.Hour)) // closed: true at once
	// Output:
	// false
	// true
}
