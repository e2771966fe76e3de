package siteapi_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/waymark-dev/waymark/internal/schemacheck"
	"github.com/waymark-dev/waymark/siteapi"
)

// TestSchemaDescribesRecipes: a learned recipe, as written, fits the
// published schema.
func TestSchemaDescribesRecipes(t *testing.T) {
	chk, err := schemacheck.Compile(siteapi.Schema)
	if err != nil {
		t.Fatal(err)
	}
	f := pages(2, func(i int) string { return fmt.Sprintf("https://shop.example/api/items?page=%d", i+1) },
		func(i int) string { return `{"results":` + items(i*5, 5) + `}` })
	r, _, err := siteapi.Learn(f, shown(0, 10), siteapi.LearnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r.Validators = &siteapi.Validators{ETag: `"abc"`}
	r.Relogin = "signin.json"
	b, err := r.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if probs := chk.Problems(v); len(probs) > 0 {
		t.Errorf("the recipe does not fit its schema: %v\n%s", probs, b)
	}
}

// TestReloginIsAPath: a recipe names its sign-in routine by a file's
// path; a URL there is refused at load, and a recipe without one loads
// as before.
func TestReloginIsAPath(t *testing.T) {
	base := `{"format": "waymark.api/1", "site": "https://shop.example", "page": "https://shop.example/", "request": {"method": "GET", "url": "https://shop.example/api"}, "rows": "", "fields": [{"name": "n", "path": "/n"}]`
	if _, err := siteapi.Parse([]byte(base + `}`)); err != nil {
		t.Fatalf("a recipe without relogin: %v", err)
	}
	if r, err := siteapi.Parse([]byte(base + `, "relogin": "auth/signin.json"}`)); err != nil || r.Relogin != "auth/signin.json" {
		t.Fatalf("relogin: %v", err)
	}
	if _, err := siteapi.Parse([]byte(base + `, "relogin": "https://evil.example/signin.json"}`)); err == nil {
		t.Fatal("a relogin URL was taken")
	}
	if got := siteapi.ReloginPath("/r/items.api.json", "signin.json"); got != "/r/signin.json" {
		t.Errorf("ReloginPath = %q", got)
	}
}
