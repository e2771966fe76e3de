//go:build evals

package reliability

import (
	"os"
	"testing"
)

// TestPlanCoversEveryChange: the seed's days give every change kind at
// least once in the quick set's days, so the quick set measures each.
func TestPlanCoversEveryChange(t *testing.T) {
	s := newSite(uint64(envInt("RELIABILITY_SEED", 30)), jobs())
	days := 6
	if os.Getenv("WAYMARK_EVALS") == "full" {
		days = 30
	}
	seen := map[string]int{}
	for day := 1; day <= envInt("RELIABILITY_DAYS", days); day++ {
		for _, j := range s.jobs {
			seen[s.change(j, day)]++
		}
	}
	for _, c := range []string{ChangeNone, ChangeChurn, ChangeRows, ChangeRenamed, ChangeRequired, ChangeMoved, ChangeRate, ChangeDown} {
		if seen[c] == 0 {
			t.Errorf("no day of the plan has the change %q: %v", c, seen)
		}
	}
	t.Logf("changes over the days: %v", seen)
}

// TestCompare: a row got that the truth does not hold is wrong, each
// row of the truth matches one row got at most, and the truth's rows
// never got are missing.
func TestCompare(t *testing.T) {
	a, b, c := map[string]string{"id": "1"}, map[string]string{"id": "2"}, map[string]string{"id": "3"}
	for _, tc := range []struct {
		got, want      []map[string]string
		wrong, missing int
	}{
		{[]map[string]string{a, b}, []map[string]string{b, a}, 0, 0},
		{[]map[string]string{a, a}, []map[string]string{a, b}, 1, 1},
		{[]map[string]string{a, c}, []map[string]string{a, b}, 1, 1},
		{nil, []map[string]string{a}, 0, 1},
		{[]map[string]string{{"id": "1", "x": ""}}, []map[string]string{a}, 1, 1},
	} {
		if w, m := compare(tc.got, tc.want); w != tc.wrong || m != tc.missing {
			t.Errorf("compare(%v, %v) = %d wrong, %d missing; want %d, %d", tc.got, tc.want, w, m, tc.wrong, tc.missing)
		}
	}
}
