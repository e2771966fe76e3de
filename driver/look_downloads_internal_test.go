package driver

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/waymark-dev/waymark/calls"
)

// The watcher's side of a download's notice (its words) is tested in
// driver/internal/files; this is where a look places them.
func TestTellDownloads(t *testing.T) {
	tests := []struct {
		name, text string
		after      int
		want       string
	}{
		{"after the page line", "[page] u \"A\"\n- main\n", 1, "[page] u \"A\"\n[download] a.csv refused: no\n- main\n"},
		{"after the page's notices", "[page] u \"A\"\n[sign-in] form\n- main\n", 2, "[page] u \"A\"\n[sign-in] form\n[download] a.csv refused: no\n- main\n"},
		{"past the end", "[page] u \"A\"\n", 3, "[page] u \"A\"\n[download] a.csv refused: no\n"},
		{"no final newline", "[page] u \"A\"", 1, "[page] u \"A\"\n[download] a.csv refused: no\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap := &calls.Snapshot{Text: tt.text, Notices: []calls.Notice{{Kind: "sign-in"}}}
			tellNotices(snap, []calls.Notice{{Kind: calls.NoticeDownload, Message: "a.csv refused: no"}}, tt.after)
			if diff := cmp.Diff(tt.want, snap.Text); diff != "" {
				t.Errorf("text (-want +got):\n%s", diff)
			}
			if len(snap.Notices) != 2 || snap.Notices[1].Kind != calls.NoticeDownload {
				t.Errorf("notices: %+v", snap.Notices)
			}
		})
	}
	// Nothing to tell leaves the look alone.
	s := &Session{}
	snap := &calls.Snapshot{Text: "[page] u \"A\"\n"}
	s.tellDownloads(snap, 1)
	if snap.Text != "[page] u \"A\"\n" || snap.Notices != nil {
		t.Errorf("a look with no downloads: %+v", snap)
	}
}
