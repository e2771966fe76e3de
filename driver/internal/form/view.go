package form

import (
	"context"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/elem"
	"github.com/waymark-dev/waymark/internal/hand"
)

// View is the core as a form's read and fill see it: the session and the
// tab the call entered, through the doors of driver/surface.go. The
// promises stay the core's: a secret is marked where the core keeps its
// one list (MarkSecret), a file comes only from the upload roots (the
// core checks them in SetFiles and DropFiles too), and the send gate
// that holds the page's sends while a form is filled is set up by the
// core around [Fill].
type View interface {
	// ReadFrames runs expr in waymark's isolated world of every frame of
	// the tab, the page first (a frame's page must answer in busy);
	// expr returns an array of a JSON string and nodes.
	ReadFrames(ctx context.Context, expr string, busy time.Duration) ([]elem.FrameRead, []calls.FrameError)
	// IdentityAttrs are the attributes a ref is known by.
	IdentityAttrs() []string
	// Ref gives el a ref (known by its tag and attributes, as a look
	// shows it) and returns the element named by it.
	Ref(el elem.Element, kind, label, tag string, attrs map[string]string) (string, elem.Element)
	// Marked says the field holds a secret the session typed.
	Marked(el elem.Element) bool
	// MarkSecret marks el as holding the secret name.
	MarkSecret(el elem.Element, name string)
	// PressKeys presses each chord on whatever has the focus.
	PressKeys(ctx context.Context, chords ...string) error
	// PressAt presses the left button once at p: the mouse moved there
	// at once, or along h's path.
	PressAt(ctx context.Context, p elem.Point, h *hand.Hand) error
	// Quiet waits until the page's DOM has been still for still.
	Quiet(ctx context.Context, still time.Duration) error
	// UploadPath makes a file's path whole, a relative one against dir
	// (the caller's folder), or refuses it where no folder can be its.
	UploadPath(path, dir string) (string, error)
	// CheckUploads makes files whole as UploadPath does, checks they are
	// under the upload roots and returns their real paths.
	CheckUploads(files []string, dir string) ([]string, error)
	// SetFiles sets a file input's files.
	SetFiles(ctx context.Context, el elem.Element, files []string) error
	// DropFiles drags files onto the page at a point and drops them.
	DropFiles(ctx context.Context, at elem.Point, files []string) error
	// RememberPage keeps a form page for the review.
	RememberPage(f *calls.Form)
	// ShownURL is a URL as outputs show it (no credentials).
	ShownURL(raw string) string
	// Hand is the tab's hand when on, else nil.
	Hand(on bool) *hand.Hand
}

// QuoteList quotes a list's items for a hint, at most max of them.
func QuoteList(items []string, max int) string {
	var b strings.Builder
	for i, s := range items {
		if i == max {
			b.WriteString(", …")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(`"` + s + `"`)
	}
	return b.String()
}
