package pilot

import (
	"encoding/json"
	"fmt"

	"github.com/waymark-dev/waymark/internal/schemacheck"
)

// checker validates answers against a JSON Schema.
type checker struct{ s *schemacheck.Checker }

func compileSchema(raw json.RawMessage) (*checker, error) {
	s, err := schemacheck.Compile(raw)
	if err != nil {
		return nil, err
	}
	return &checker{s}, nil
}

// problems lists what is wrong with v, each with its JSON pointer:
// "/2/price: expected number, got string "£12"".
func (c *checker) problems(v any) []string {
	var out []string
	for _, p := range c.s.Problems(v) {
		out = append(out, fmt.Sprintf("%s: %s", orRoot(p.Pointer()), p.Msg))
	}
	return out
}

func orRoot(p string) string {
	if p == "" {
		return "(the answer)"
	}
	return p
}
