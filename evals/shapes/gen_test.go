package shapes

import (
	"io"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

// TestGenerateIsRepeatableAndGrows: a seed gives the same corpus, the
// full corpus begins with the quick one, and another seed another.
func TestGenerateIsRepeatableAndGrows(t *testing.T) {
	quick, again, full := Generate(27, Quick), Generate(27, Quick), Generate(27, Full)
	for i := range quick.Lists {
		if !reflect.DeepEqual(quick.Lists[i].Pages, again.Lists[i].Pages) || quick.Lists[i].page(1) != again.Lists[i].page(1) {
			t.Fatalf("list %d differs between two runs of one seed", i)
		}
		if !reflect.DeepEqual(quick.Lists[i].Pages, full.Lists[i].Pages) {
			t.Fatalf("list %d differs between the quick and the full corpus", i)
		}
	}
	for i := range quick.Forms {
		if quick.Forms[i].html != full.Forms[i].html {
			t.Fatalf("form %d differs between the quick and the full corpus", i)
		}
	}
	if len(full.Lists) != Full.Lists || len(full.Forms) != Full.Forms || len(full.APIs) != Full.APIs || len(full.Sheets) != Full.Sheets {
		t.Fatalf("full corpus sizes %d %d %d %d", len(full.Lists), len(full.Forms), len(full.APIs), len(full.Sheets))
	}
	if other := Generate(28, Quick); reflect.DeepEqual(other.Lists[0].Pages, quick.Lists[0].Pages) {
		t.Fatal("another seed gave the same list")
	}
}

// TestTruthStaysOffThePage: every truth row is shown on its page (its key
// in the page's words) and the page holds no copy of the truth's values
// as the schema writes them (an ISO date, a JSON field name).
func TestTruthStaysOffThePage(t *testing.T) {
	for _, c := range Generate(27, Full).Lists {
		srv := httptest.NewServer(c.Handler())
		var all strings.Builder
		for p := 1; p <= len(c.Pages); p++ {
			for _, path := range []string{"/?page=", "/more?page="} {
				res, err := srv.Client().Get(srv.URL + path + string(rune('0'+p)))
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(res.Body)
				res.Body.Close()
				all.Write(b)
			}
		}
		srv.Close()
		page := all.String()
		for _, row := range c.Truth() {
			if !strings.Contains(page, row[c.Key].(string)) {
				t.Errorf("%s: %q is not on the page", c.Name, row[c.Key])
			}
			for _, f := range []string{"published", "posted"} {
				if d, ok := row[f].(string); ok && strings.Contains(page, d) {
					t.Errorf("%s: the truth's date %s is on the page", c.Name, d)
				}
			}
		}
		if strings.Contains(page, `"price"`) || strings.Contains(page, "data-truth") {
			t.Errorf("%s: the page holds the truth's field names", c.Name)
		}
	}
}
