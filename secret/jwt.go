package secret

import (
	"encoding/base64"
	"encoding/json"
	"strings"
)

// jwtHeader reports whether the first part of a dotted token decodes to a
// JSON object with "alg", which tells a JWT (or JWS) from dotted names
// such as "eyebrow-title.section.body".
func jwtHeader(m string) bool {
	head, _, _ := strings.Cut(m, ".")
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(head, "="))
	if err != nil {
		return false
	}
	var h map[string]any
	if json.Unmarshal(b, &h) != nil {
		return false
	}
	_, ok := h["alg"]
	return ok
}
