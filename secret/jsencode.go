package secret

import (
	"fmt"
	"strings"
	"unicode/utf16"
)

// A page spells a value with JavaScript's encoders, not Go's: a password
// with "!" sent by encodeURIComponent is "…!" where url.QueryEscape and
// url.PathEscape write "…%21", and a URLSearchParams query writes "~" as
// "%7E" where Go leaves it. Each is a form of the value a Set must know,
// or the page's own URL, requests and console show it readable.

// jsSpellings returns value as the page's encoders write it:
// encodeURIComponent, encodeURI, URLSearchParams (a form's urlencoded
// body or query) and escape.
func jsSpellings(value string) []string {
	return []string{
		percent(value, "-_.!~*'()", "%20"),
		percent(value, "-_.!~*'();,/?:@&=+$#", "%20"),
		percent(value, "*-._", "+"),
		jsEscape(value),
	}
}

// percent writes value's UTF-8 bytes as %XX (upper-case hex), except
// ASCII letters, digits and the bytes in keep; a space is space.
func percent(value, keep, space string) string {
	var b strings.Builder
	for i := 0; i < len(value); i++ {
		c := value[i]
		switch {
		case c == ' ':
			b.WriteString(space)
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c < 0x80 && strings.IndexByte(keep, c) >= 0:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// jsEscape is JavaScript's escape: ASCII letters, digits and "@*_+-./"
// stay, other UTF-16 code units up to 0xFF are %XX, the rest %uXXXX.
func jsEscape(value string) string {
	var b strings.Builder
	for _, u := range utf16.Encode([]rune(value)) {
		switch {
		case u < 0x80 && ('a' <= u && u <= 'z' || 'A' <= u && u <= 'Z' || '0' <= u && u <= '9' || strings.ContainsRune("@*_+-./", rune(u))):
			b.WriteByte(byte(u))
		case u <= 0xFF:
			fmt.Fprintf(&b, "%%%02X", u)
		default:
			fmt.Fprintf(&b, "%%u%04X", u)
		}
	}
	return b.String()
}
