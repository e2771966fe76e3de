package routine

import (
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

func TestVariableName(t *testing.T) {
	tests := []struct {
		name   string
		fp     *calls.Fingerprint
		secret bool
		want   string
	}{
		{"label", &calls.Fingerprint{Label: "Full name", Name: "Your name"}, false, "full_name"},
		{"name when no label", &calls.Fingerprint{Name: "E-mail address"}, false, "e_mail_address"},
		{"camel id", &calls.Fingerprint{ID: "firstName"}, false, "first_name"},
		{"placeholder", &calls.Fingerprint{Placeholder: "Search products…"}, false, "search_products"},
		{"password field", &calls.Fingerprint{Label: "Account password", Type: "password"}, true, "password"},
		{"pin field", &calls.Fingerprint{Label: "PIN", Type: "password"}, true, "pin"},
		{"long label", &calls.Fingerprint{Label: "Tell us what you think of the shop, please"}, false, "tell_us_what_you_think"},
		{"digits first", &calls.Fingerprint{Label: "2FA code"}, true, "field_2fa_code"},
		{"no words", &calls.Fingerprint{Label: "…"}, false, "value"},
		{"no field, secret", nil, true, "secret"},
		{"non-ASCII dropped", &calls.Fingerprint{Label: "Straße Nr."}, false, "stra_e_nr"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := VariableName(tt.fp, tt.secret); got != tt.want {
				t.Errorf("VariableName = %q, want %q", got, tt.want)
			}
		})
	}
}
