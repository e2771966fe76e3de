//go:build evals

package reliability

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/waymark-dev/waymark/pilot"
)

// model is the scripted model of the eval's heals: it answers as a model
// would by reading what it is sent. A heal turn: the control on the
// outline under the words the site's button has today (the day's truth
// of a rename), or no control when nothing was renamed. An extract turn:
// the rows of the day's list it can see in the page text sent (every
// value of the row shown), in the order the page shows their keys. It never
// answers from what the page does not show.
type model struct {
	site *site
	job  *job
	day  int
}

func (m *model) Next(ctx context.Context, turn pilot.Turn) (pilot.Reply, error) {
	j, day := m.job, m.day
	text := turn.Messages[len(turn.Messages)-1].Text
	switch turn.Purpose {
	case pilot.PurposeHeal:
		if m.site.change(j, day) == ChangeRenamed {
			if ref := refOf(text, "button", `"`+j.renamed+`"`); ref != "" {
				return pilot.Reply{Data: json.RawMessage(fmt.Sprintf(`{"action":"click","ref":%q,"reason":"the button now reads %s"}`, ref, j.renamed))}, nil
			}
		}
		return pilot.Reply{Data: json.RawMessage(`{"action":"click","ref":"","reason":"nothing on the page does this"}`)}, nil
	case pilot.PurposeExtract:
		type seen struct {
			at  int
			row map[string]string
		}
		var rows []seen
		for _, r := range m.site.rows(j, day) {
			// Where the row is: its key (the first field), shown once.
			at, all := strings.Index(text, r[j.fields[0]]), true
			for _, f := range j.fields {
				all = all && strings.Contains(text, r[f])
			}
			if all {
				rows = append(rows, seen{at, r})
			}
		}
		slices.SortFunc(rows, func(a, b seen) int { return a.at - b.at })
		out := make([]map[string]string, len(rows))
		for i, r := range rows {
			out[i] = r.row
		}
		b, err := json.Marshal(out)
		return pilot.Reply{Data: b}, err
	}
	return pilot.Reply{}, fmt.Errorf("the eval's model answers heal and extract turns, not %s", turn.Purpose)
}
