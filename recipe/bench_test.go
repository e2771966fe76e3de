package recipe_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/recipe"
)

// The benchmarks read a 500-row list over 10 pages of 50 rows. Only the
// reads are timed, not loading the pages.
const benchPages, benchRows = 10, 50

func benchSite(b *testing.B) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscan(strings.TrimPrefix(r.URL.Path, "/"), &n)
		var sb strings.Builder
		sb.WriteString(`<!doctype html><html lang="en"><title>Big list</title><body><main><h1>Products</h1><ul class="products">`)
		for i := 0; i < benchRows; i++ {
			k := n*benchRows + i
			fmt.Fprintf(&sb, `<li class="product"><h3>Product %d</h3><span class="sku">SKU-%d</span><span class="price">£%d.%02d</span></li>`, k, k, 10+k, k%100)
		}
		sb.WriteString(`</ul></main></body></html>`)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, sb.String())
	}))
	b.Cleanup(srv.Close)
	return srv.URL
}

func benchRecipe(b *testing.B, ctx context.Context, ev recipe.Evaler) *recipe.Recipe {
	l, _ := recipe.ListOf(json.RawMessage(tableSchema))
	var rows []map[string]any
	for i := 0; i < benchRows; i++ {
		rows = append(rows, map[string]any{"name": fmt.Sprintf("Product %d", i), "sku": fmt.Sprintf("SKU-%d", i), "price": float64(10+i) + float64(i%100)/100})
	}
	r, err := recipe.Learn(ctx, ev, l, rows)
	if err != nil {
		b.Fatal(err)
	}
	return r
}

// BenchmarkRecipeRead reads the rows by a recipe (one isolated-world
// script per page, values typed in Go).
func BenchmarkRecipeRead(b *testing.B) {
	s, ctx := drivertest.Session(b, "bench", 10*time.Minute)
	base := benchSite(b)
	if _, err := s.Open(ctx, calls.OpenRequest{URL: base + "/0"}); err != nil {
		b.Fatal(err)
	}
	r := benchRecipe(b, ctx, s)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for p := 0; p < benchPages; p++ {
			b.StopTimer()
			if _, err := s.Open(ctx, calls.OpenRequest{URL: fmt.Sprintf("%s/%d", base, p)}); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			got, err := recipe.Read(ctx, s, r)
			if err != nil || len(got.Rows) != benchRows || got.Misfit != "" {
				b.Fatalf("%v %d %s", err, len(got.Rows), got.Misfit)
			}
		}
	}
	b.ReportMetric(float64(b.N*benchPages*benchRows)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkHandWrittenChromedp reads the same rows as a person would with
// chromedp: one Evaluate per page with the selectors written by hand, the
// price parsed in Go.
func BenchmarkHandWrittenChromedp(b *testing.B) {
	ctx := browsertest.Tab(b)
	base := benchSite(b)
	const js = `Array.from(document.querySelectorAll('ul.products > li')).map(li => ({name: li.querySelector('h3').innerText.trim(), sku: li.querySelector('.sku').innerText.trim(), price: li.querySelector('.price').innerText.trim()}))`
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for p := 0; p < benchPages; p++ {
			b.StopTimer()
			if _, err := chromedp.Run(ctx, chromedp.Navigate(fmt.Sprintf("%s/%d", base, p))); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]map[string]string](js))
			if err != nil {
				b.Fatal(err)
			}
			rows := make([]map[string]any, len(raw))
			for j, r := range raw {
				price, _ := recipe.ParseNumber(r["price"], "en")
				rows[j] = map[string]any{"name": r["name"], "sku": r["sku"], "price": price}
			}
			if len(rows) != benchRows {
				b.Fatal(len(rows))
			}
		}
	}
	b.ReportMetric(float64(b.N*benchPages*benchRows)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkRecipeVsHandWritten reads each page both ways in turn, the
// hand-written program's read and the recipe's each on a page just loaded,
// so both meet the same load of a shared machine; it reports the ratio of
// their times.
func BenchmarkRecipeVsHandWritten(b *testing.B) {
	s, ctx := drivertest.Session(b, "benchvs", 10*time.Minute)
	tab := browsertest.Tab(b)
	base := benchSite(b)
	if _, err := s.Open(ctx, calls.OpenRequest{URL: base + "/0"}); err != nil {
		b.Fatal(err)
	}
	r := benchRecipe(b, ctx, s)
	var hand, rec time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for p := 0; p < benchPages; p++ {
			url := fmt.Sprintf("%s/%d", base, p)
			if _, err := chromedp.Run(tab, chromedp.Navigate(url)); err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			if n := handRead(b, tab); n != benchRows {
				b.Fatal(n)
			}
			hand += time.Since(start)
			if _, err := s.Open(ctx, calls.OpenRequest{URL: url}); err != nil {
				b.Fatal(err)
			}
			start = time.Now()
			got, err := recipe.Read(ctx, s, r)
			if err != nil || len(got.Rows) != benchRows || got.Misfit != "" {
				b.Fatalf("%v %s", err, got.Misfit)
			}
			rec += time.Since(start)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(hand.Milliseconds())/float64(b.N), "hand-ms/500rows")
	b.ReportMetric(float64(rec.Milliseconds())/float64(b.N), "recipe-ms/500rows")
	b.ReportMetric(float64(rec)/float64(hand), "recipe/hand")
}

// handRead is the hand-written program's read of a page: one Evaluate
// with the selectors written by hand, the price parsed in Go.
func handRead(b *testing.B, ctx context.Context) int {
	const js = `Array.from(document.querySelectorAll('ul.products > li')).map(li => ({name: li.querySelector('h3').innerText.trim(), sku: li.querySelector('.sku').innerText.trim(), price: li.querySelector('.price').innerText.trim()}))`
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]map[string]string](js))
	if err != nil {
		b.Fatal(err)
	}
	rows := make([]map[string]any, len(raw))
	for j, r := range raw {
		price, _ := recipe.ParseNumber(r["price"], "en")
		rows[j] = map[string]any{"name": r["name"], "sku": r["sku"], "price": price}
	}
	return len(rows)
}

// instant is a model stub that answers at once with the rows of the page
// shown (read from the outline), to time the model path without a model.
type instant struct{}

func (instant) Next(_ context.Context, t pilot.Turn) (pilot.Reply, error) {
	text := t.Messages[0].Text
	var rows []map[string]any
	for _, line := range strings.Split(text, "\n") {
		var k int
		if _, err := fmt.Sscanf(strings.TrimSpace(line), "- heading \"Product %d\"", &k); err == nil {
			rows = append(rows, map[string]any{"name": fmt.Sprintf("Product %d", k), "sku": fmt.Sprintf("SKU-%d", k), "price": float64(10+k) + float64(k%100)/100})
		}
	}
	b, _ := json.Marshal(rows)
	return pilot.Reply{Data: b}, nil
}

// BenchmarkModelStubRead reads the same rows through the model path with
// a stub answering instantly: a full outline per page, the answer checked.
func BenchmarkModelStubRead(b *testing.B) {
	s, ctx := drivertest.Session(b, "benchmodel", 10*time.Minute)
	base := benchSite(b)
	p := pilot.New(s, instant{}, nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for pg := 0; pg < benchPages; pg++ {
			b.StopTimer()
			if _, err := s.Open(ctx, calls.OpenRequest{URL: fmt.Sprintf("%s/%d", base, pg)}); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			res, err := p.Extract(ctx, "every product", json.RawMessage(tableSchema))
			if err != nil || !res.OK || !strings.Contains(string(res.Data), "SKU-") {
				b.Fatalf("%v %+v", err, res)
			}
		}
	}
	b.ReportMetric(float64(b.N*benchPages*benchRows)/b.Elapsed().Seconds(), "rows/s")
}
