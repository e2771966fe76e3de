package discover

import (
	"math"
	"net/url"
	"sort"
)

// BM25 parameters: the usual ones (Robertson and Zaragoza).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// docWords are the words a page is ranked on: its URL's path and query,
// its title and its description.
func docWords(p Page) []string {
	var words []string
	if u, err := url.Parse(p.URL); err == nil {
		words = append(words, SplitWords(u.EscapedPath()+" "+u.RawQuery)...)
	}
	words = append(words, SplitWords(p.Title)...)
	return stems(append(words, SplitWords(p.Description)...))
}

// stems folds a plain English plural onto its singular ("lamps" →
// "lamp"), so a query in either form finds the other.
func stems(words []string) []string {
	for i, w := range words {
		if len(w) > 3 && w[len(w)-1] == 's' && w[len(w)-2] != 's' {
			words[i] = w[:len(w)-1]
		}
	}
	return words
}

// rank scores pages by BM25 against query and sorts them best first
// (stable, so pages that tie keep the site's order). Pages that share no
// word with the query are dropped, unless the query has no words.
func rank(pages []Page, query string) []Page {
	q := stems(SplitWords(query))
	if len(q) == 0 || len(pages) == 0 {
		return pages
	}
	docs := make([]map[string]int, len(pages))
	lens := make([]int, len(pages))
	df := map[string]int{}
	total := 0
	for i, p := range pages {
		ws := docWords(p)
		tf := map[string]int{}
		for _, w := range ws {
			tf[w]++
		}
		for w := range tf {
			df[w]++
		}
		docs[i], lens[i] = tf, len(ws)
		total += len(ws)
	}
	avg := float64(total) / float64(len(pages))
	if avg == 0 {
		avg = 1
	}
	n := float64(len(pages))
	seen := map[string]bool{}
	var terms []string
	for _, w := range q {
		if !seen[w] {
			seen[w] = true
			terms = append(terms, w)
		}
	}
	var out []Page
	for i, p := range pages {
		score := 0.0
		for _, w := range terms {
			f := float64(docs[i][w])
			if f == 0 {
				continue
			}
			idf := math.Log(1 + (n-float64(df[w])+0.5)/(float64(df[w])+0.5))
			score += idf * f * (bm25K1 + 1) / (f + bm25K1*(1-bm25B+bm25B*float64(lens[i])/avg))
		}
		if score > 0 {
			p.Score = math.Round(score*1000) / 1000
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Score > out[b].Score })
	return out
}
