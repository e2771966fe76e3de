package recipe

import (
	"context"
	_ "embed"
	"fmt"
	"strconv"
)

//go:embed next.js
var nextJS string

// FindNext finds the control that goes to the next page of a list by its
// intent (rel=next, or a link or button named Next, Older, More, ›) and
// returns a locator for it, or "" when the page has none that is enabled.
func FindNext(ctx context.Context, ev Evaler) (string, error) {
	var rep struct{ CSS, Role, Name string }
	if err := run(ctx, ev, nextJS, nil, &rep); err != nil {
		return "", fmt.Errorf("find the next page: %w", err)
	}
	switch {
	case rep.CSS != "":
		return "css=" + rep.CSS, nil
	case rep.Role != "":
		return "role=" + rep.Role + "[name=" + strconv.Quote(rep.Name) + "]", nil
	}
	return "", nil
}
