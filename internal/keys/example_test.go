package keys_test

import (
	"errors"
	"fmt"

	"github.com/waymark-dev/waymark/internal/keys"
)

func ExamplePress() {
	evs, err := keys.Press("Control+A")
	if err != nil {
		panic(err)
	}
	for _, e := range evs {
		fmt.Println(e.Type, e.Key, e.Code, e.WindowsVirtualKeyCode, e.Modifiers)
	}

	_, err = keys.Press("Shift+Entr")
	fmt.Println(errors.Is(err, keys.ErrUnknownKey))
	// Output:
	// rawKeyDown Control ControlLeft 17 2
	// rawKeyDown a KeyA 65 2
	// keyUp a KeyA 65 2
	// keyUp Control ControlLeft 17 0
	// true
}

func ExampleType() {
	for _, s := range keys.Type("Hi né\n") {
		switch s.Kind {
		case keys.StepKey:
			fmt.Printf("key %q\n", s.Events[0].Key)
		case keys.StepInsert:
			fmt.Printf("insert %q\n", s.Text)
		}
	}
	// Output:
	// key "H"
	// key "i"
	// key " "
	// key "n"
	// insert "é"
	// key "Enter"
}
