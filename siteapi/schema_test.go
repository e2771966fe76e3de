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
