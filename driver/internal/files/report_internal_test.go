package files

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/waymark-dev/waymark/calls"
)

func TestDownloadNotices(t *testing.T) {
	running := &download{arrival: 5, name: "x.csv", received: 12345}
	d := &Downloads{list: []*download{
		{arrival: 1, name: "told.csv", received: 5, state: calls.DownloadCompleted, path: "/dl/told.csv", reported: true},
		{arrival: 2, name: "report.csv", received: 100, state: calls.DownloadCompleted, path: "/dl/report.csv"},
		{arrival: 3, name: "setup.exe", state: calls.DownloadRefused, reason: "files ending .exe are not allowed"},
		{arrival: 4, name: "big.csv", received: 70000, state: calls.DownloadCanceled, reason: "larger than the limit of 65536 bytes"},
		running,
	}}
	inProgress := calls.Notice{Kind: calls.NoticeDownload, Message: "x.csv in progress (12345 bytes so far)",
		Detail: map[string]string{"name": "x.csv", "state": "in-progress", "bytes": "12345"}}
	want := []calls.Notice{
		{Kind: calls.NoticeDownload, Message: "report.csv downloaded (100 bytes) to /dl/report.csv",
			Detail: map[string]string{"name": "report.csv", "state": "completed", "bytes": "100", "path": "/dl/report.csv"}},
		{Kind: calls.NoticeDownload, Message: "setup.exe refused: files ending .exe are not allowed",
			Detail: map[string]string{"name": "setup.exe", "state": "refused", "bytes": "0", "reason": "files ending .exe are not allowed"}},
		{Kind: calls.NoticeDownload, Message: "big.csv canceled: larger than the limit of 65536 bytes",
			Detail: map[string]string{"name": "big.csv", "state": "canceled", "bytes": "70000", "reason": "larger than the limit of 65536 bytes"}},
		inProgress,
	}
	if diff := cmp.Diff(want, d.Notices()); diff != "" {
		t.Fatalf("first look (-want +got):\n%s", diff)
	}
	// The ended ones are told once; the running one at every look.
	if diff := cmp.Diff([]calls.Notice{inProgress}, d.Notices()); diff != "" {
		t.Fatalf("second look (-want +got):\n%s", diff)
	}
	running.state, running.path, running.received = calls.DownloadCompleted, "/dl/x.csv", 20000
	if got := d.Notices(); len(got) != 1 || got[0].Message != "x.csv downloaded (20000 bytes) to /dl/x.csv" {
		t.Fatalf("the look after it ended: %+v", got)
	}
	if got := d.Notices(); got != nil {
		t.Fatalf("a look with nothing new: %+v", got)
	}

	var none *Downloads
	if none.Notices() != nil || none.All() == nil || len(none.All()) != 0 {
		t.Fatal("a session without a watcher has downloads")
	}
}

func TestCollectAndListMarkReported(t *testing.T) {
	done := &download{arrival: 1, name: "a.csv", received: 1, state: calls.DownloadCompleted, path: "/dl/a.csv"}
	running := &download{arrival: 2, name: "b.csv", received: 2}
	d := &Downloads{arrived: 2, processed: 2, list: []*download{done, running}, limit: time.Minute,
		changed: make(chan struct{}), done: make(chan struct{})}
	// A canceled wait returns at once, with b.csv still running.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got := d.Collect(ctx, 0)
	if len(got) != 2 || got[1].State != calls.DownloadInProgress {
		t.Fatalf("collect: %+v", got)
	}
	// The outcome told a.csv's end, not b.csv's: the next look tells that.
	if n := d.Notices(); len(n) != 1 || n[0].Detail["name"] != "b.csv" {
		t.Fatalf("look after the outcome: %+v", n)
	}
	running.state, running.path = calls.DownloadCompleted, "/dl/b.csv"
	want := []calls.Download{
		{Name: "a.csv", Path: "/dl/a.csv", Bytes: 1, State: calls.DownloadCompleted},
		{Name: "b.csv", Path: "/dl/b.csv", Bytes: 2, State: calls.DownloadCompleted},
	}
	if diff := cmp.Diff(want, d.All()); diff != "" {
		t.Fatalf("list (-want +got):\n%s", diff)
	}
	if n := d.Notices(); n != nil {
		t.Fatalf("a look after the list: %+v", n)
	}
}
