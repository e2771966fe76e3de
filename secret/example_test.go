package secret_test

import (
	"fmt"

	"github.com/waymark-dev/waymark/secret"
)

func ExampleSet_Redact() {
	var s secret.Set
	s.Add("password", "correct horse")
	fmt.Println(s.Redact("typed correct horse, then ?p=correct+horse"))
	fmt.Println(s.Redact("key ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"))
	// Output:
	// typed «secret:password», then ?p=«secret:password»
	// key «secret»
}

func ExampleValue() {
	v := secret.New("password", "correct horse")
	fmt.Printf("%v %q %#v\n", v, v, v)
	// Output: [redacted] "[redacted]" [redacted]
}

func ExampleField() {
	fmt.Println(secret.Field{Words: "CVC", Type: "text"}.Secret())
	fmt.Println(secret.Field{Autocomplete: "one-time-code"}.Secret())
	fmt.Println(secret.Field{Words: "Postal code"}.Secret())
	// Output:
	// true
	// true
	// false
}

func ExampleSet_Redact_short() {
	// A declared value shorter than MinKnown is masked where it stands
	// alone, not inside longer numbers.
	s := secret.NewSet(secret.New("pin", "739"))
	fmt.Println(s.Redact("PIN 739 accepted; order #17390"))
	// Output: PIN «secret:pin» accepted; order #17390
}

func ExampleEnviron() {
	env := []string{"PATH=/usr/bin", "OPENAI_API_KEY=sk-…", "S=482913", "WAYMARK_SESSION=shop"}
	fmt.Println(secret.Environ(env))
	// Output: [PATH=/usr/bin WAYMARK_SESSION=shop]
}
