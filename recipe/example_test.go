package recipe_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/recipe"
)

// Read a list with no model by a recipe learned earlier (waymark extract
// --recipe saves one): a driver session is the Evaler. A recipe that no
// longer fits is a Misfit, not an error.
func ExampleRead() {
	ctx := context.Background()
	raw, err := os.ReadFile("products.recipe.json")
	if err != nil {
		log.Fatal(err)
	}
	r, err := recipe.Parse(raw)
	if err != nil {
		log.Fatal(err)
	}
	b, err := driver.Launch(ctx, driver.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	s, err := b.Session(ctx, "lists")
	if err != nil {
		log.Fatal(err)
	}
	if _, err := s.Navigate(ctx, "https://shop.example/products"); err != nil {
		log.Fatal(err)
	}
	rows, err := recipe.Read(ctx, s, r)
	if err != nil {
		log.Fatal(err)
	}
	if rows.Misfit != "" {
		fmt.Println("the recipe no longer fits:", rows.Misfit)
		return
	}
	for _, row := range rows.Rows {
		fmt.Println(row["name"], row["price"])
	}
}

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
