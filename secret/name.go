package secret

import (
	"regexp"
	"strings"
	"sync"
)

// Name reports whether a header, query or form parameter, JSON field,
// storage key or cookie is named like one that carries a secret: a token,
// secret, password or passphrase, an API, access or private key (and a
// header or parameter called …-key), a CSRF or session id, auth and
// credentials, a signature, a cookie, a PIN, one-time code or card
// security code. "author" and "authority" are not.
//
// It is the one name rule: network captures mark such values, API recipes
// refuse to keep them, and the send gate's approvals mask them. Labels a
// person reads on a page are [Field]'s words, a different language
// ("Session name" is no secret).
func Name(name string) bool {
	n := strings.ToLower(name)
	n = notAuth().Replace(n)
	if strings.HasSuffix(n, "author") || strings.Contains(n, "author") && !strings.Contains(n, "authoriz") {
		n = strings.ReplaceAll(n, "author", "")
	}
	return secretNameRE().MatchString(n)
}

// notAuth removes the words that hold "auth" without being about it;
// built once, Name runs for every field of every captured body.
var notAuth = sync.OnceValue(func() *strings.Replacer {
	return strings.NewReplacer("authority", "", "authors", "", "author_", "", "author-", "")
})

var secretNameRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`token|secret|pass(?:w|code|phrase)|(?:^|[^a-z])pwd(?:[^a-z]|$)|api[-_]?key|access[-_]?key|private[-_]?key|(?:^|[-_])key$|csrf|xsrf|session|sessid|(?:^|[^a-z])sid(?:[^a-z]|$)|auth|credential|signature|cookie|(?:^|[^a-z])(?:pin|otp|cvc|cvv|csc)(?:[^a-z]|$)`)
})
