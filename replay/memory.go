package replay

import (
	"context"

	"github.com/waymark-dev/waymark/pilot"
)

// pilot is the replay's pilot over model m: its secrets known, its
// memory of sites (Options.Memory) shared by every step.
func (x *run) pilot(m pilot.Model) *pilot.Pilot {
	return pilot.New(x.d, m, &pilot.Options{Secrets: x.known, Memory: x.opts.Memory})
}

// learn tells the memory one lesson about the site of pageURL, through
// the pilot, which drops a lesson holding a secret or any value this
// replay types (Options.Vars, each row of a list variable). A store that fails does not fail the step.
func (x *run) learn(ctx context.Context, p *pilot.Pilot, pageURL, lesson string) {
	if x.opts.Memory == nil {
		return
	}
	typed := make([]string, 0, len(x.opts.Vars))
	for _, v := range x.opts.Vars {
		typed = append(typed, v)
	}
	// A list variable's value is its JSON; what is typed is each row's.
	var leaves func(v any)
	leaves = func(v any) {
		switch v := v.(type) {
		case string:
			typed = append(typed, v)
		case map[string]any:
			for _, e := range v {
				leaves(e)
			}
		case []any:
			for _, e := range v {
				leaves(e)
			}
		}
	}
	for _, items := range x.lists {
		leaves(items)
	}
	_, _ = p.Learn(ctx, pilot.Site(pageURL), lesson, typed)
}
