package driver

import (
	"errors"
	"testing"

	"github.com/waymark-dev/waymark/policy"
)

// TestFileFrom: with local files allowed, a tab showing a page from the
// web loads a file: document only in its main frame, only the one waymark
// sent it to, and only once; a frame of a web page never. Chromium
// refuses these itself; the guard keeps the promise should it not.
func TestFileFrom(t *testing.T) {
	const f = "file:///tmp/report.html"
	tb := &tab{frameID: "main", docURL: "http://127.0.0.1:8000/"}
	refused := func(err error) bool {
		var b *policy.BlockedError
		return errors.As(err, &b) && b.Reason == policy.ReasonFileFromWeb
	}
	if err := tb.fileFrom(f, "main"); !refused(err) {
		t.Errorf("a web page's tab went to a file waymark did not ask for: %v", err)
	}
	tb.askFile(f)
	if err := tb.fileFrom(f, "sub"); !refused(err) {
		t.Errorf("a web page's frame loaded the file: %v", err)
	}
	if err := tb.fileFrom(f, "main"); err != nil {
		t.Errorf("the file waymark opened: %v", err)
	}
	if err := tb.fileFrom(f, "main"); !refused(err) {
		t.Errorf("a web page went back to the file waymark opened once: %v", err)
	}
	tb.docURL = f
	if err := tb.fileFrom("file:///tmp/other.html", "sub"); err != nil {
		t.Errorf("a local file's frame of another file: %v", err)
	}
}
