// Package shapes is the corpus of shapes real sites have (issue 29): list
// pages, forms, APIs behind lists and spreadsheets, each with its truth,
// generated from a seed so the corpus is repeatable and can grow. The
// truth of a case (the rows a page shows, the values a form must send)
// lives in the case's Go value, never in the page: no test ids, no data
// attributes, nothing the tool could read instead of the page. The eval
// (eval_test.go, build tag evals) serves every case on loopback, reads it
// with waymark and counts what came out right: make evals.
package shapes

import (
	"fmt"
	"math/rand/v2"
)

// Sizes says how many cases of each class to make.
type Sizes struct{ Lists, Forms, APIs, Sheets int }

// Quick is the quick set's sizes (make evals); Full the larger corpus
// (WAYMARK_EVALS=full).
var (
	Quick = Sizes{Lists: 30, Forms: 15, APIs: 10, Sheets: 6}
	Full  = Sizes{Lists: 90, Forms: 45, APIs: 30, Sheets: 18}
)

// Corpus is every case of one seed.
type Corpus struct {
	Seed   uint64
	Lists  []*ListCase
	Forms  []*FormCase
	APIs   []*APICase
	Sheets []*SheetCase
}

// Generate makes the corpus of seed: the same seed gives the same cases,
// and a larger size the same first cases and more after them (each case
// draws from a source of its own: seed and its number).
func Generate(seed uint64, n Sizes) Corpus {
	c := Corpus{Seed: seed}
	for i := range n.Lists {
		c.Lists = append(c.Lists, genList(src(seed, 1, i), i))
	}
	for i := range n.Forms {
		c.Forms = append(c.Forms, genForm(src(seed, 2, i), i))
	}
	for i := range n.APIs {
		c.APIs = append(c.APIs, genAPI(src(seed, 3, i), i))
	}
	for i := range n.Sheets {
		c.Sheets = append(c.Sheets, genSheet(src(seed, 4, i), i))
	}
	return c
}

func src(seed uint64, class, i int) *rand.Rand {
	return rand.New(rand.NewPCG(seed, uint64(class)<<32|uint64(i)))
}

func pick[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }

// names draws n distinct two-word names ("Cedar Lamp"): none is a part of
// another, so a page's words name one row each.
func names(r *rand.Rand, n int, firsts, seconds []string) []string {
	seen := map[string]bool{}
	var out []string
	for len(out) < n {
		s := pick(r, firsts...) + " " + pick(r, seconds...)
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

var (
	adjectives = []string{"Trail", "Canvas", "Field", "Harbor", "Cedar", "Copper", "Linen", "Granite", "Meadow", "Willow", "Amber", "Slate", "Juniper", "Coastal", "Alpine", "Birch", "Maple", "Indigo", "Ivory", "Rustic", "Nordic", "Velvet", "Summit", "Orchard"}
	things     = []string{"Mug", "Tote", "Notebook", "Lamp", "Kettle", "Blanket", "Backpack", "Candle", "Bottle", "Scarf", "Planter", "Clock", "Apron", "Basket", "Cushion", "Teapot", "Satchel", "Lantern"}
	givenNames = []string{"Ada", "Bruno", "Chloé", "Dmitri", "Elena", "Farah", "Gustav", "Hana", "Idris", "Jonas", "Keiko", "Lena", "Marek", "Nadia", "Oskar", "Priya", "Quentin", "Rosa"}
	surnames   = []string{"Lindqvist", "Moreau", "Tanaka", "Okafor", "Brandt", "Costa", "Novak", "Haddad", "Fischer", "Sato", "Dubois", "Kowalski", "Reyes", "Weber"}
	cities     = []string{"Berlin", "Lyon", "Leeds", "Osaka", "Austin", "Porto", "Gdańsk", "Utrecht", "Graz", "Nantes"}
)

func person(r *rand.Rand) string { return pick(r, givenNames...) + " " + pick(r, surnames...) }

func sku(r *rand.Rand) string {
	return fmt.Sprintf("%c%c-%04d", 'A'+r.IntN(26), 'A'+r.IntN(26), r.IntN(10000))
}
