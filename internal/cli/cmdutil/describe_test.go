package cmdutil

import (
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

func TestDescribeOutcomeDownloads(t *testing.T) {
	req := calls.ActRequest{Kind: calls.ActClick, Target: "@e3"}
	out := calls.Outcome{URL: "http://127.0.0.1/files", Title: "Files", Downloads: []calls.Download{
		{Name: "report.csv", Path: "/tmp/d/report.csv", Bytes: 100, State: calls.DownloadCompleted},
		{Name: "setup.exe", State: calls.DownloadRefused, Reason: "files ending .exe are not allowed"},
		{Name: "big.csv", Bytes: 4096, State: calls.DownloadInProgress},
	}}
	got := DescribeOutcome(req, out)
	for _, want := range []string{
		"\ndownloaded report.csv (100 bytes) to /tmp/d/report.csv",
		"\ndownload of setup.exe refused: files ending .exe are not allowed",
		"\ndownload of big.csv still running (4096 bytes so far)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("outcome text lacks %q:\n%s", want, got)
		}
	}
}

// An action that navigated names where it went (not what it acted on: the
// agent wrote that on the line above); on the same origin as the
// page it left, by its path only (the origin is what the reader knows).
func TestDescribeOutcomeNamesTheNewPageByItsPathOnTheSameSite(t *testing.T) {
	req := calls.ActRequest{Kind: calls.ActClick, Target: "@e7"}
	for _, tt := range []struct {
		from, to, want string
	}{
		{"http://127.0.0.1:8080/products", "http://127.0.0.1:8080/products/1", "clicked → /products/1"},
		{"http://127.0.0.1:8080/products", "http://127.0.0.1:8080/search?q=mug#top", "clicked → /search?q=mug#top"},
		{"http://127.0.0.1:8080/products", "http://localhost:8080/login", "clicked → http://localhost:8080/login"},
		{"http://shop.test/", "https://shop.test/pay", "clicked → https://shop.test/pay"},
		{"", "http://shop.test/pay", "clicked → http://shop.test/pay"},
		// A path that reads as another site's address is not shortened.
		{"http://forum.test/t/1", "http://forum.test//bank.test/login", "clicked → http://forum.test//bank.test/login"},
	} {
		got := DescribeOutcome(req, calls.Outcome{URL: tt.to, From: tt.from, Navigated: true})
		if got != tt.want {
			t.Errorf("from %s to %s: %q, want %q", tt.from, tt.to, got, tt.want)
		}
	}
}
