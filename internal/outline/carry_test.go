package outline

import (
	"maps"
	"testing"
)

func TestCarry(t *testing.T) {
	prev := `[page] http://shop/products "Products"
- banner:
  - link "Shop" [ref=e1]
  - navigation "Main":
    - link "Cart (2)" [ref=e2]
- main:
  - heading "Products" [level=1]
  - link "Trail Mug" [ref=e3]
- contentinfo:
  - link "[ref=e9]" [ref=e4]`
	now := `[page] http://shop/products/1 "Trail Mug"
- banner:
  - link "Shop" [ref=e11]
  - navigation "Main":
    - link "Cart (2)" [ref=e12]
- main:
  - heading "Trail Mug" [level=1]
  - button "Add to cart" [ref=e13]
- contentinfo:
  - link "[ref=e9]" [ref=e14]`
	var offered []map[string]string
	full, shown := Carry(prev, now, func(m map[string]string) bool {
		offered = append(offered, maps.Clone(m))
		return true
	})
	wantFull := `[page] http://shop/products/1 "Trail Mug"
- banner:
  - link "Shop" [ref=e1]
  - navigation "Main":
    - link "Cart (2)" [ref=e2]
- main:
  - heading "Trail Mug" [level=1]
  - button "Add to cart" [ref=e13]
- contentinfo:
  - link "[ref=e9]" [ref=e4]`
	wantShown := `[page] http://shop/products/1 "Trail Mug"
- banner: (unchanged)
- main:
  - heading "Trail Mug" [level=1]
  - button "Add to cart" [ref=e13]
- contentinfo: (unchanged)`
	if full != wantFull {
		t.Errorf("full:\n%s\nwant:\n%s", full, wantFull)
	}
	if shown != wantShown {
		t.Errorf("shown:\n%s\nwant:\n%s", shown, wantShown)
	}
	want := []map[string]string{{"e11": "e1", "e12": "e2"}, {"e14": "e4"}}
	if len(offered) != 2 || !maps.Equal(offered[0], want[0]) || !maps.Equal(offered[1], want[1]) {
		t.Errorf("offered %v, want %v", offered, want)
	}

	// A region keep refuses is written whole, with its own refs.
	full, shown = Carry(prev, now, func(m map[string]string) bool { return m["e14"] == "" })
	if full == wantFull || shown != `[page] http://shop/products/1 "Trail Mug"
- banner: (unchanged)
- main:
  - heading "Trail Mug" [level=1]
  - button "Add to cart" [ref=e13]
- contentinfo:
  - link "[ref=e9]" [ref=e14]` {
		t.Errorf("refused region:\n%s", shown)
	}

	// A region that changed (a count, a state) is written whole.
	changed := `- banner:
  - link "Shop" [ref=e11]
  - navigation "Main":
    - link "Cart (3)" [ref=e12]`
	if full, shown := Carry(prev, changed, func(map[string]string) bool { return true }); full != changed || shown != changed {
		t.Errorf("a changed region was folded:\n%s", shown)
	}
}

// A region folds only when its lines are the last page's line for line:
// the same lines in another order or at another depth are written whole,
// and words in a name that read as a ref flag are words, not the ref.
func TestCarryFoldsOnlyTheSameLines(t *testing.T) {
	prev := `- banner:
  - link "Home" [ref=e1]
  - link "Account" [ref=e2]
- navigation "Main":
  - link "[ref=e1]" [ref=e3]`
	for name, now := range map[string]string{
		"order": `- banner:
  - link "Account" [ref=e11]
  - link "Home" [ref=e12]`,
		"depth": `- banner:
  - link "Home" [ref=e11]
  - navigation:
    - link "Account" [ref=e12]`,
		"flag in a name": `- navigation "Main":
  - link "[ref=e3]" [ref=e1]`,
	} {
		full, shown := Carry(prev, now, func(map[string]string) bool { t.Errorf("%s: offered", name); return true })
		if full != now || shown != now {
			t.Errorf("%s: folded:\n%s", name, shown)
		}
	}
	var offered map[string]string
	_, shown := Carry(prev, `- navigation "Main":
  - link "[ref=e1]" [ref=e13]`, func(m map[string]string) bool { offered = m; return true })
	if shown != `- navigation "Main": (unchanged)` || !maps.Equal(offered, map[string]string{"e13": "e3"}) {
		t.Errorf("a name that reads as a flag: offered %v, shown:\n%s", offered, shown)
	}
}
