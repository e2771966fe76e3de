package capture

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// MarkerPrefix starts every redaction marker.
const MarkerPrefix = "«redacted:"

// Marker is the stand-in for a secret value: «redacted:KIND:HASH», with
// HASH the first 12 hex digits of HMAC-SHA256(key, value). KIND says what
// was redacted (authorization, cookie, token, jwt, card, secret, key…).
// The same value under the same key gives the same marker, whatever its
// kind, so a reader matches a header's token to the storage it came from
// by the HASH.
func Marker(key []byte, kind, value string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(value))
	return MarkerPrefix + kind + ":" + hex.EncodeToString(m.Sum(nil))[:12] + "»"
}

// MarkerHash returns the HASH of a marker and true, or "" and false when s
// is not one marker.
func MarkerHash(s string) (string, bool) {
	if !strings.HasPrefix(s, MarkerPrefix) || !strings.HasSuffix(s, "»") {
		return "", false
	}
	body := strings.TrimSuffix(strings.TrimPrefix(s, MarkerPrefix), "»")
	i := strings.LastIndexByte(body, ':')
	if i < 0 || len(body)-i-1 != 12 {
		return "", false
	}
	return body[i+1:], true
}
