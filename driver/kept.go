package driver

// kept holds the last max items added to it and counts those that went
// before them. It lets its slice grow to twice max and then cuts it back
// to max in one copy: cutting one item off the front at every add copied
// the whole log for each console message, and a page logging thousands a
// second made that copy the daemon's busiest work.
type kept[T any] struct {
	all  []T
	gone int // items cut from all
	max  int
}

func (k *kept[T]) add(v T) {
	if len(k.all) >= 2*k.max {
		n := copy(k.all, k.all[len(k.all)-k.max:])
		clear(k.all[n:]) // what was cut holds no memory
		k.gone += len(k.all) - n
		k.all = k.all[:n]
	}
	k.all = append(k.all, v)
}

// items returns the last max items, oldest first; the slice is k's own.
func (k *kept[T]) items() []T { return k.all[len(k.all)-k.shown():] }

// dropped returns how many items were added before the last max.
func (k *kept[T]) dropped() int { return k.gone + len(k.all) - k.shown() }

func (k *kept[T]) shown() int { return min(len(k.all), k.max) }

// reset forgets every item, and the count of those dropped.
func (k *kept[T]) reset() { k.all, k.gone = nil, 0 }
