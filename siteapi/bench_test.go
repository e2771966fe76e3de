package siteapi_test

import (
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/apishop"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/recipe"
	"github.com/waymark-dev/waymark/siteapi"
)

// BenchmarkAPIvsBrowser reads the shop's 100 products (10 pages of 10)
// both ways in each round: from the learned API, called from the tab,
// and through the browser, each page opened and read by a recipe
// (package recipe), following the page's next link. It reports the rows
// per second of each, their ratio, and the requests and bytes that
// reached the shop for each read (counted by the shop).
//
//	go test -run '^$' -bench APIvsBrowser -benchtime 5x ./siteapi/
func BenchmarkAPIvsBrowser(b *testing.B) {
	s, ctx := drivertest.Session(b, "bench", 10*time.Minute)
	shop := apishop.Start(apishop.Options{})
	defer shop.Close()
	r, _, dom := learnShop(b, ctx, s, shop, 2)
	var apiTime, browserTime time.Duration
	var apiRows, browserRows, apiReq, browserReq int
	var apiBytes, browserBytes int64
	b.ResetTimer()
	for range b.N {
		shop.Reset()
		start := time.Now()
		res, err := siteapi.Call(ctx, s, r, siteapi.CallOptions{Fresh: true})
		if err != nil {
			b.Fatal(err)
		}
		apiTime += time.Since(start)
		apiRows += len(res.Rows)
		apiReq += shop.Requests()
		apiBytes += shop.Bytes()

		shop.Reset()
		start = time.Now()
		u := shop.URL + "/"
		for p := 0; p < 10; p++ {
			if _, err := s.Open(ctx, calls.OpenRequest{URL: u}); err != nil {
				b.Fatal(err)
			}
			if _, err := s.Wait(ctx, calls.WaitRequest{Selector: "body[data-loaded=yes]"}); err != nil {
				b.Fatal(err)
			}
			got, err := recipe.Read(ctx, s, dom)
			if err != nil || got.Misfit != "" {
				b.Fatalf("page %d: %v %s", p+1, err, got.Misfit)
			}
			browserRows += len(got.Rows)
			if p < 9 {
				next, err := s.Get(ctx, calls.GetRequest{What: "attr", Target: "css=#next", Name: "href"})
				if err != nil {
					b.Fatal(err)
				}
				u = shop.URL + next.Value
			}
		}
		browserTime += time.Since(start)
		browserReq += shop.Requests()
		browserBytes += shop.Bytes()
	}
	b.StopTimer()
	if apiRows != browserRows || apiRows != 100*b.N {
		b.Fatalf("the API read %d rows, the browser %d; want %d each", apiRows, browserRows, 100*b.N)
	}
	apiRate := float64(apiRows) / apiTime.Seconds()
	browserRate := float64(browserRows) / browserTime.Seconds()
	n := float64(b.N)
	b.ReportMetric(apiRate, "api-rows/s")
	b.ReportMetric(browserRate, "browser-rows/s")
	b.ReportMetric(apiRate/browserRate, "speedup")
	b.ReportMetric(float64(apiReq)/n, "api-requests")
	b.ReportMetric(float64(browserReq)/n, "browser-requests")
	b.ReportMetric(float64(apiBytes)/n, "api-bytes")
	b.ReportMetric(float64(browserBytes)/n, "browser-bytes")
}
