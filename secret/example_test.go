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
