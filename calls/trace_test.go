package calls

import (
	"encoding/json"
	"testing"
)

// TestTraceReadsOldStart: a trace file written before its start was named
// started_unix_ms still gives its start times.
func TestTraceReadsOldStart(t *testing.T) {
	for _, raw := range []string{
		`{"format":"waymark.trace/1","started_ms":5,"duration_ms":2,"entries":[{"index":1,"method":"open","started_ms":7,"duration_ms":1,"ok":true}]}`,
		`{"format":"waymark.trace/1","started_unix_ms":5,"duration_ms":2,"entries":[{"index":1,"method":"open","started_unix_ms":7,"duration_ms":1,"ok":true}]}`,
	} {
		var tr Trace
		if err := json.Unmarshal([]byte(raw), &tr); err != nil {
			t.Fatal(err)
		}
		if tr.StartedUnixMS != 5 || tr.DurationMS != 2 || len(tr.Entries) != 1 || tr.Entries[0].StartedUnixMS != 7 || tr.Entries[0].Method != "open" || !tr.Entries[0].OK {
			t.Errorf("%s: read as %+v", raw, tr)
		}
	}
}
