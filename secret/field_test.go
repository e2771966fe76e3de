package secret

import "testing"

func TestFieldSecret(t *testing.T) {
	tests := []struct {
		f    Field
		want bool
	}{
		{Field{Type: "password"}, true},
		{Field{Type: "PASSWORD", Words: "Anything"}, true},
		{Field{Autocomplete: "one-time-code"}, true},
		{Field{Autocomplete: "section-pay billing cc-number"}, true},
		{Field{Autocomplete: "cc-csc"}, true},
		{Field{Words: "cvc"}, true}, // a CVC is a secret to every recorder alike
		{Field{Words: "CVV"}, true},
		{Field{Words: "Security code"}, true},
		{Field{Words: "Code"}, true},
		{Field{Words: "Verification code"}, true},
		{Field{Words: "PIN"}, true},
		{Field{Words: "userPassword"}, true},
		{Field{Words: "confirm_password"}, true},
		{Field{Words: "One-time code"}, true},
		{Field{Words: "API key"}, true},
		{Field{Words: "Card number"}, true},
		{Field{Words: "cardnumber"}, true},
		{Field{Words: "Credit card"}, true},
		{Field{Words: `textbox "Access token" [ref=e4]`}, true},
		{Field{Words: "otp"}, true},
		{Field{Words: "Postal code"}, false},
		{Field{Words: "ZIP code"}, false},
		{Field{Words: "Promo code"}, false},
		{Field{Words: "Card holder"}, false},
		{Field{Words: "cardholder name"}, false},
		{Field{Words: "Passport number"}, false},
		{Field{Words: "Shipping address"}, false},
		{Field{Words: "Secretary"}, false},
		{Field{Words: "Full name", Type: "text", Autocomplete: "name"}, false},
		{Field{}, false},
		{Field{Words: "I agree to the code of conduct", Type: "checkbox"}, false},
		{Field{Words: "Remember my card number", Type: "checkbox"}, false},
		{Field{Words: "Pay with card", Type: "radio"}, false},
	}
	for _, tt := range tests {
		if got := tt.f.Secret(); got != tt.want {
			t.Errorf("%+v.Secret() = %v, want %v", tt.f, got, tt.want)
		}
	}
}

func TestFieldCardDetail(t *testing.T) {
	for _, tt := range []struct {
		f    Field
		want bool
	}{
		{Field{Autocomplete: "cc-name"}, true},
		{Field{Autocomplete: "section-pay cc-exp"}, true},
		{Field{Autocomplete: "cc-exp-month"}, true},
		{Field{Words: "Name on card"}, true},
		{Field{Words: "Cardholder name"}, true},
		{Field{Words: "card_holder"}, true},
		{Field{Words: "Card expiry"}, true},
		{Field{Words: "Expiration date of the card"}, true},
		{Field{Words: "Valid thru"}, true},
		{Field{Words: "Expiry", Autocomplete: "off"}, false},
		{Field{Words: "Expiry MM/YY"}, true},
		{Field{Words: "Passport expiry date"}, false},
		{Field{Words: "Full name", Autocomplete: "name"}, false},
		{Field{Words: "Name on card", Type: "checkbox"}, false},
		{Field{Words: "Library card number"}, false},
	} {
		if got := tt.f.CardDetail(); got != tt.want {
			t.Errorf("%+v.CardDetail() = %v, want %v", tt.f, got, tt.want)
		}
	}
}

// A declared value shorter than MinKnown is masked where it stands alone,
// and left inside longer runs of letters or digits.
func TestSetShortValues(t *testing.T) {
	var s Set
	s.Add("pin", "482")
	s.Add("d", "7")
	tests := []struct{ in, want string }{
		{"PIN 482 accepted", "PIN «secret:pin» accepted"},
		{"/done?pin=482", "/done?pin=«secret:pin»"},
		{"order #14820", "order #14820"},
		{"code482", "code482"},
		{`value="7"`, `value="«secret:d»"`},
		{"step 17 of 70", "step 17 of 70"},
	}
	for _, tt := range tests {
		if got := s.Redact(tt.in); got != tt.want {
			t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := s.Redact(s.Redact(tt.in)); got != tt.want {
			t.Errorf("Redact twice (%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	// Contains, which decides refusals, looks for long values only.
	if _, ok := s.Contains("PIN: 482"); ok {
		t.Error("Contains finds a short value")
	}
	// A name holding its own short value cannot bring it back.
	var n Set
	n.Add("pin_1", "1")
	if got := n.Redact("box 1"); got != "box «secret:pin_1»" {
		t.Errorf("Redact = %q", got)
	}
}

func TestMark(t *testing.T) {
	if got := Mark("code"); got != "«secret:code»" {
		t.Errorf("Mark = %q", got)
	}
	var s Set
	s.Add("code", "482913")
	if got := s.Redact("482913"); got != Mark("code") {
		t.Errorf("Redact writes %q, Mark %q", got, Mark("code"))
	}
}
