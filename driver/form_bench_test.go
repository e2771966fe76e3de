package driver_test

import (
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
)

// The figures in the README's forms section come from these:
//
//	go test -run '^$' -bench Form -benchtime 20x ./driver/

// BenchmarkFormRead reads the 60-field application form (a cross-site
// frame and a shadow root among them): the goal is under 60 ms.
func BenchmarkFormRead(b *testing.B) {
	s, ctx := drivertest.Session(b, b.Name(), 5*time.Minute)
	srv := serve(b, map[string]string{"/": applyPage, "/referrer": referrerPage})
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL}); err != nil {
		b.Fatal(err)
	}
	n := 0
	for b.Loop() {
		f, err := s.Form(ctx, calls.FormRequest{})
		if err != nil {
			b.Fatal(err)
		}
		n = len(f.Fields)
	}
	b.ReportMetric(float64(n), "fields")
}

// textAnswers are answers for the form's text fields (the kinds a plain
// fill can do too), by key.
func textAnswers(b *testing.B, f *calls.Form) map[string]string {
	out := map[string]string{}
	for _, x := range f.Fields {
		if (x.Kind == calls.FieldText || x.Kind == calls.FieldTextarea) && x.Frame == "" && x.Key != "available_from" {
			out[x.Key] = "answer " + x.Key
		}
	}
	if len(out) < 20 {
		b.Fatalf("only %d text fields", len(out))
	}
	return out
}

// BenchmarkFormFill fills the form's text fields with one form fill
// (every write read back, sends held), against BenchmarkFormFillEach.
func BenchmarkFormFill(b *testing.B) {
	s, ctx := drivertest.Session(b, b.Name(), 5*time.Minute)
	srv := serve(b, map[string]string{"/": applyPage, "/referrer": referrerPage})
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL}); err != nil {
		b.Fatal(err)
	}
	f, err := s.Form(ctx, calls.FormRequest{})
	if err != nil {
		b.Fatal(err)
	}
	answers := textAnswers(b, f)
	for b.Loop() {
		res, err := s.FillForm(ctx, calls.FormFillRequest{Answers: answers})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Unmatched) > 0 {
			b.Fatalf("unmatched %v", res.Unmatched)
		}
	}
	b.ReportMetric(float64(len(answers)), "fields")
}

// BenchmarkFormFillEach fills the same fields one fill at a time, by the
// refs of one read, as an agent does with `waymark fill REF VALUE`
// (without the process start of each command).
func BenchmarkFormFillEach(b *testing.B) {
	s, ctx := drivertest.Session(b, b.Name(), 5*time.Minute)
	srv := serve(b, map[string]string{"/": applyPage, "/referrer": referrerPage})
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL}); err != nil {
		b.Fatal(err)
	}
	f, err := s.Form(ctx, calls.FormRequest{})
	if err != nil {
		b.Fatal(err)
	}
	answers := textAnswers(b, f)
	refs := map[string]string{}
	for _, x := range f.Fields {
		refs[x.Key] = x.Ref
	}
	for b.Loop() {
		for k, v := range answers {
			if _, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActFill, Target: refs[k], Value: v}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(answers)), "fields")
}

// BenchmarkFormFillEveryKind fills the 40 answers of every kind the
// tests give (a typeahead whose options come 300 ms after typing, a
// dependent select, a slider moved by its arrow keys, a drop zone, a
// third experience added), from a fresh load each time.
func BenchmarkFormFillEveryKind(b *testing.B) {
	s, ctx := drivertest.Session(b, b.Name(), 5*time.Minute)
	srv := serve(b, map[string]string{"/": applyPage, "/referrer": referrerPage})
	answers := applyAnswers(b)
	delete(answers, "favourite colour")
	for b.Loop() {
		b.StopTimer()
		if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		res, err := s.FillForm(ctx, calls.FormFillRequest{Answers: answers})
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range res.Fields {
			if f.Answered && !f.ReadBack {
				b.Fatalf("%s not taken: %s", f.Key, f.Error)
			}
		}
	}
	b.ReportMetric(float64(len(answers)), "fields")
}
