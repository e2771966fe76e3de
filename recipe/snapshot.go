package recipe

import (
	"context"
	_ "embed"
	"fmt"
)

//go:embed snapshot.js
var snapshotJS string

// Page is one page of a list a model read, for learning a recipe against
// every page ([LearnPages]): the model's rows (as the page writes them) and,
// for a page no longer in the tab, its snapshot.
type Page struct {
	// Snapshot is the page as [Snapshot] kept it; empty is the page in
	// the tab.
	Snapshot string
	Rows     []map[string]any
}

// Snapshot keeps the page in the tab so a recipe can be learned against it
// once the tab has moved on to the list's next page: its HTML, copied in
// an inert document (nothing loads, nothing runs, the page sees nothing),
// each element carrying the text it showed.
func Snapshot(ctx context.Context, ev Evaler) (string, error) {
	var s string
	if err := run(ctx, ev, snapshotJS, nil, &s); err != nil {
		return "", fmt.Errorf("keep the page: %w", err)
	}
	return s, nil
}
