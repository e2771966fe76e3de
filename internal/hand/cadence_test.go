package hand

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/google/go-cmp/cmp"
)

// secondKeyDown is the mean wait before the second letter of each
// two-letter word of words, over many seeds.
func secondKeyDown(t *testing.T, words []string) time.Duration {
	t.Helper()
	text := strings.Join(words, " ")
	var sum time.Duration
	var n int
	for seed := range int64(300) {
		plan, err := Cadence(text, seed)
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(plan); i += 3 {
			sum += plan[i].Down
			n++
		}
	}
	return sum / time.Duration(n)
}

func TestCadenceDigraphs(t *testing.T) {
	common := secondKeyDown(t, []string{"th", "he", "in", "er", "an", "re", "on", "at", "en", "nd"})
	rare := secondKeyDown(t, []string{"qj", "zv", "xk", "jq", "vz", "kx", "pq", "fz", "wj", "yq"})
	t.Logf("mean wait before the second letter: %v in common pairs, %v in rare ones", common, rare)
	if common >= rare*85/100 {
		t.Errorf("common pairs wait %v on average, not clearly faster than rare ones (%v)", common, rare)
	}
	// Two keys on one finger are slower than on two hands.
	oneFinger := secondKeyDown(t, []string{"ft", "ju", "ki", "lo", "sw", "aq", "gv", "hy", "ce", "nu"})
	twoHands := secondKeyDown(t, []string{"fj", "jf", "kd", "ls", "sl", "ak", "gh", "hg", "cn", "nc"})
	t.Logf("one finger %v, two hands %v", oneFinger, twoHands)
	if oneFinger <= twoHands*13/10 {
		t.Errorf("same-finger pairs wait %v, not clearly slower than pairs on two hands (%v)", oneFinger, twoHands)
	}
}

func TestCadenceSpacesAndPunctuation(t *testing.T) {
	const text = "the quick brown fox jumps over the lazy dog, and then; it naps. okay"
	var space, letter, punct time.Duration
	var ns, nl, np int
	for seed := range int64(300) {
		plan, err := Cadence(text, seed)
		if err != nil {
			t.Fatal(err)
		}
		for i, k := range plan[1:] {
			prev := plan[i].Rune
			switch {
			case k.Rune == ' ':
				space += k.Down
				ns++
			case strings.ContainsRune(",;.", k.Rune):
				punct += k.Down
				np++
			case prev != ' ':
				letter += k.Down
				nl++
			}
		}
	}
	space, letter, punct = space/time.Duration(ns), letter/time.Duration(nl), punct/time.Duration(np)
	t.Logf("mean wait: %v before a space, %v before punctuation, %v before a letter inside a word", space, punct, letter)
	if space <= letter*11/10 {
		t.Errorf("spaces wait %v, not clearly slower than letters (%v)", space, letter)
	}
	if punct <= letter*12/10 {
		t.Errorf("punctuation waits %v, not clearly slower than letters (%v)", punct, letter)
	}
}

func TestCadenceHoldsAndWaits(t *testing.T) {
	const text = "Hello, World! 42 times: café\tok"
	for seed := range int64(500) {
		plan, err := Cadence(text, seed)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(plan); got != len([]rune(text)) {
			t.Fatalf("%d keys for %d characters", got, len([]rune(text)))
		}
		for i, k := range plan {
			if k.Rune != []rune(text)[i] {
				t.Fatalf("key %d is %q, want %q", i, k.Rune, []rune(text)[i])
			}
			if k.Hold < 50*time.Millisecond || k.Hold > 120*time.Millisecond {
				t.Fatalf("seed %d key %d %q held %v, want 50–120 ms", seed, i, k.Rune, k.Hold)
			}
			if k.Down < minDown || k.Down > maxDown+shiftLeadMax*time.Millisecond {
				t.Fatalf("seed %d key %d %q waits %v", seed, i, k.Rune, k.Down)
			}
		}
	}
}

// Shift is down before each capital or shifted symbol goes down and up only
// after it comes up, and never down around other keys.
func TestCadenceShiftFramed(t *testing.T) {
	const text = "Hi THERE, ok? A-b_C"
	for seed := range int64(300) {
		plan, err := Cadence(text, seed)
		if err != nil {
			t.Fatal(err)
		}
		shift := false
		var last time.Duration
		for _, ev := range Timeline(plan) {
			if ev.At < last {
				t.Fatalf("seed %d: events out of order at %v after %v", seed, ev.At, last)
			}
			last = ev.At
			k := plan[ev.Index]
			if ev.Shift {
				if shift == ev.Down {
					t.Fatalf("seed %d: Shift down=%v twice, at key %d %q", seed, ev.Down, ev.Index, k.Rune)
				}
				shift = ev.Down
				continue
			}
			want := unicode.IsUpper(k.Rune) || strings.ContainsRune("?_", k.Rune)
			if want != k.Shift {
				t.Fatalf("seed %d: key %d %q Shift = %v, want %v", seed, ev.Index, k.Rune, k.Shift, want)
			}
			if shift != want {
				t.Fatalf("seed %d: key %d %q (down=%v) with Shift held = %v", seed, ev.Index, k.Rune, ev.Down, shift)
			}
		}
		if shift {
			t.Fatalf("seed %d: Shift still down at the end", seed)
		}
	}
}

func TestCadenceNewlineRefused(t *testing.T) {
	for _, text := range []string{"a\nb", "line\r\n", "\n", "secret\r"} {
		plan, err := Cadence(text, 1)
		if !errors.Is(err, ErrNewline) || plan != nil {
			t.Errorf("Cadence(%q) = %d keys, %v; want ErrNewline", text, len(plan), err)
		}
		if err != nil && strings.Contains(err.Error(), "secret") {
			t.Errorf("error %q quotes the text", err)
		}
	}
	if plan, err := Cadence("", 1); err != nil || len(plan) != 0 {
		t.Errorf("Cadence(\"\") = %v, %v; want no keys", plan, err)
	}
}

func TestCadenceSeeded(t *testing.T) {
	const text = "Seeded typing, twice."
	a, _ := Cadence(text, 42)
	b, _ := Cadence(text, 42)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("same seed, different plans (-first +second):\n%s", diff)
	}
	c, _ := Cadence(text, 43)
	if cmp.Equal(a, c) {
		t.Errorf("seeds 42 and 43 plan the same typing")
	}
}

func TestPairFactor(t *testing.T) {
	for _, tc := range []struct {
		pair string
		want float64
	}{
		{"fj", alternateHands}, {"fd", sameHand}, {"ft", sameFinger}, {"ll", repeatKey},
		{"a ", alternateHands}, {"é", sameHand}, {"p;", sameFinger}, {"1q", sameFinger},
	} {
		r := []rune(tc.pair + "é")
		if got := pairFactor(r[0], r[1]); got != tc.want {
			t.Errorf("pairFactor(%q) = %v, want %v", tc.pair, got, tc.want)
		}
	}
}
