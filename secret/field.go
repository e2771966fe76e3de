package secret

import (
	"regexp"
	"strings"
	"sync"
)

// Field is what a page says about a form field, for [Field.Secret]. Every
// part may be empty.
type Field struct {
	// Words name the field: its label, accessible name, name or id
	// attribute, placeholder, or its outline line; several may be joined
	// with spaces.
	Words string
	// Type is an input's type attribute: "password", "text", "tel".
	Type string
	// Autocomplete is the autocomplete attribute: "one-time-code",
	// "cc-csc", "section-pay billing cc-number".
	Autocomplete string
}

// Secret reports whether what is typed into the field is a secret: a
// password field, a field the page marks for a password, a one-time code
// or card details, or one whose words speak of a password, PIN, one-time
// code, security code, card number, token, API key or secret. "Postal
// code", "promo code" and "card holder" are not secrets.
//
// It is the one rule every part of waymark uses: the agent loop when a
// person is asked for a value, the by-hand recorder when it proposes
// variables, the outline and the submit gate when they show field values.
func (f Field) Secret() bool {
	switch strings.ToLower(strings.TrimSpace(f.Type)) {
	case "password":
		return true
	case "checkbox", "radio", "submit", "button", "reset", "image", "range", "color", "file":
		// A choice or a control, not typed: "I agree to the code of
		// conduct" is a box to tick.
		return false
	}
	for _, tok := range strings.Fields(strings.ToLower(f.Autocomplete)) {
		switch tok {
		case "current-password", "new-password", "one-time-code", "cc-number", "cc-csc":
			return true
		}
	}
	return secretWords(f.Words)
}

var (
	// secretCompounds are found inside words too: "userPassword",
	// "cardnumber", "x-api-key".
	secretCompounds = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)pass(?:word|wd|code|phrase)|secret|token|one[- _]?time|api[- _]?key|cvc|cvv|card[- _]?(?:number|num|no\b)|security[- _]?code|cc[- _]?(?:num|csc)`)
	})
	// secretWord, code and card are whole words.
	secretWord = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(?:^|[^\pL\pN])(?:pass|pwd|otp|pin|csc|cvn|2fa|mfa)(?:[^\pL\pN]|$)`)
	})
	// code is a secret unless a word before it says what kind of public
	// code it is; card unless a word after it names something else.
	publicCode = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(?:^|[^\pL\pN])(?:postal|post|zip|promo|promotion|promotional|discount|coupon|voucher|gift|referral|invite|invitation|country|area|dialing|dial|tracking|product|item|sort|swift|bank|tax|vat|currency|language|source|qr|bar)[ _-]?code`)
	})
	codeWord = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(?:^|[^\pL\pN])code(?:[^\pL\pN]|$)`)
	})
	cardWord = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(?:^|[^\pL\pN])card([ _-]?(?:holder|name|type|brand|nickname|label|owner|design|message|s))?(?:[^\pL\pN]|$)`)
	})
)

func secretWords(w string) bool {
	if w == "" {
		return false
	}
	if secretCompounds().MatchString(w) && !strings.Contains(strings.ToLower(w), "secretary") || secretWord().MatchString(w) {
		return true
	}
	if codeWord().MatchString(publicCode().ReplaceAllString(w, " ")) {
		return true
	}
	for _, m := range cardWord().FindAllStringSubmatch(w, -1) {
		if m[1] == "" {
			return true // "Card", "Credit card": its number
		}
	}
	return false
}

// CardDetail reports whether the field holds a payment card's details
// beyond its number and security code (which [Field.Secret] covers): the
// name on the card or its expiry, by the page's autocomplete tokens or
// the field's words ("Name on card", "Cardholder", "Card expiry", "Valid
// thru", "MM/YY"). A form's read-back masks these too; they are not
// secrets a person is asked for.
func (f Field) CardDetail() bool {
	switch strings.ToLower(strings.TrimSpace(f.Type)) {
	case "checkbox", "radio", "submit", "button", "reset", "image", "range", "color", "file":
		return false
	}
	for _, tok := range strings.Fields(strings.ToLower(f.Autocomplete)) {
		switch tok {
		case "cc-name", "cc-given-name", "cc-additional-name", "cc-family-name", "cc-exp", "cc-exp-month", "cc-exp-year":
			return true
		}
	}
	return f.Words != "" && cardDetailWords().MatchString(f.Words)
}

var cardDetailWords = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)name[ _-]?on[ _-]?(?:the[ _-]?)?card|card[ _-]?holder|card[ _-]?(?:expir|exp(?:[^\pL]|$))|expir\w*[ _-]?(?:date[ _-]?)?(?:of[ _-]?)?(?:the[ _-]?)?card|valid[ _-]?(?:thru|through|until)|\bmm ?/ ?yy`)
})
