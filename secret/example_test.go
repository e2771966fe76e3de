package secret_test

import (
	"fmt"

	"github.com/waymark-dev/waymark/secret"
)

// A program declares the values it knows are secret; text bound for a
// prompt, a log or a file goes through Redact.
func ExampleSet_Redact() {
	known := new(secret.Set)
	known.Add("password", "correct horse battery")
	fmt.Println(known.Redact("signed in with correct horse battery"))
	// Output:
	// signed in with «secret:password»
}

// A Value prints as [redacted] however it is formatted; only Reveal gives
// its bytes.
func ExampleValue() {
	v := secret.New("token", "s3cr3t-t0ken")
	fmt.Println(v, fmt.Sprintf("%v %+v %#v", v, v, v))
	fmt.Println(len(v.Reveal()))
	// Output:
	// [redacted] [redacted] [redacted] [redacted]
	// 12
}
