package recipe_test

import (
	"fmt"

	"github.com/waymark-dev/waymark/recipe"
)

// Numbers are read as the page writes them, by its language.
func ExampleParseNumber() {
	uk, _ := recipe.ParseNumber("£1,299.00", "en-GB")
	de, _ := recipe.ParseNumber("1.299,00 €", "de")
	fmt.Println(uk, de)
	// Output: 1299 1299
}

// A recipe file is checked when it is read.
func ExampleParse() {
	_, err := recipe.Parse([]byte(`{"format":"waymark.recipe/1","container":"#results","row":"li","fields":[{"name":"title","type":"string","by":"role","select":"a"}]}`))
	fmt.Println(err)
	// Output: <nil>
}
