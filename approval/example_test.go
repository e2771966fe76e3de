package approval_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/waymark-dev/waymark/approval"
)

// A replay presses a submit a person approved while recording only when
// the authority vouches for the file as it is: saved or approved by a
// person (Grant, which only a command a person runs calls), and not a
// byte changed since.
func ExampleAuthority_Load() {
	dir, err := os.MkdirTemp("", "approval-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	auth := approval.New(filepath.Join(dir, "approvals")) // a program's own; a person's is approval.Default(nil)
	path := filepath.Join(dir, "order.routine.json")
	routineJSON := `{"format": "waymark.routine/1", "name": "order", "steps": [
  {"kind": "goto", "url": "https://shop.example/checkout"},
  {"id": "pay", "kind": "act", "op": "click", "target": {"locator": "css=#pay", "fingerprint": {"role": "button", "name": "pay"}},
   "approved": {"action": "click", "path": "/checkout", "control": "button \"Pay\"", "why": "submits the form"}}]}`
	if err := os.WriteFile(path, []byte(routineJSON), 0o600); err != nil {
		log.Fatal(err)
	}

	r, trust, err := auth.Load(path)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("recorded approvals:", len(approval.RecordedIn(r)))
	fmt.Println("before a person approved it:", trust.Holds(r))

	if err := auth.Grant(path, "routine approve"); err != nil {
		log.Fatal(err)
	}
	r, trust, _ = auth.Load(path)
	fmt.Println("approved:", trust.Holds(r))

	os.WriteFile(path, []byte(routineJSON+"\n"), 0o600) // one byte more
	r, trust, _ = auth.Load(path)
	fmt.Println("changed since:", trust.Holds(r))
	// Output:
	// recorded approvals: 1
	// before a person approved it: false
	// approved: true
	// changed since: false
}
