package driver

import (
	"slices"
	"testing"
)

// TestKeptHoldsTheLast: whatever the number added, the last max are kept
// in order and every other one is counted as dropped.
func TestKeptHoldsTheLast(t *testing.T) {
	for _, n := range []int{0, 1, 3, 4, 5, 7, 8, 9, 20, 1001} {
		k := kept[int]{max: 4}
		for i := range n {
			k.add(i)
		}
		var want []int
		for i := max(0, n-4); i < n; i++ {
			want = append(want, i)
		}
		if got := k.items(); !slices.Equal(got, want) || k.dropped() != n-len(want) {
			t.Errorf("after %d: kept %v, dropped %d; want %v, %d", n, got, k.dropped(), want, n-len(want))
		}
		if cap(k.all) > 16 {
			t.Errorf("after %d: the slice grew to %d for 4 kept", n, cap(k.all))
		}
	}
	k := kept[int]{max: 2}
	k.add(1)
	k.add(2)
	k.add(3)
	k.reset()
	k.add(4)
	if !slices.Equal(k.items(), []int{4}) || k.dropped() != 0 {
		t.Errorf("after reset: %v, dropped %d", k.items(), k.dropped())
	}
}
