package pilotflags

import (
	"context"

	"github.com/waymark-dev/waymark/apps"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/sheet"
)

// SheetDumpOf is the one place that connects extract (CLI and MCP, and
// the replays of both) to the sheet commands: it returns the dump of the
// session's page when the page is a known spreadsheet application, else
// nil. It decides from the App a look names (the driver detects the
// application on every look), taken unseen and one level deep so it
// costs little; only a page that is a sheet is dumped, so an ordinary
// page costs no dump round trip.
func SheetDumpOf(ctx context.Context, s calls.Session) (pilot.SheetDump, error) {
	snap, err := s.Snapshot(ctx, calls.SnapshotRequest{Depth: 1, Unseen: true})
	if err != nil {
		return nil, err
	}
	if apps.LabelKind(snap.App) != apps.KindSheet {
		return nil, nil
	}
	return func(ctx context.Context) (*sheet.Grid, error) {
		g, err := s.SheetDump(ctx, calls.SheetDumpRequest{})
		if err != nil {
			return nil, err
		}
		return &g.Grid, nil
	}, nil
}

// SheetAtStep dumps the sheet the page shows when a replay's extract step
// with a grid recipe asks: the page is the step's, not the replay's first.
func SheetAtStep(s calls.Session) pilot.SheetDump {
	return func(ctx context.Context) (*sheet.Grid, error) {
		dump, err := SheetDumpOf(ctx, s)
		if err != nil {
			return nil, err
		}
		if dump == nil {
			return nil, &calls.Error{Kind: calls.ErrNoMatch, Msg: "the page is not a spreadsheet waymark knows", Hint: "open the sheet the grid recipe was learned on; add its application under [[apps]] in the config"}
		}
		return dump(ctx)
	}
}
