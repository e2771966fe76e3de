package secret

import "testing"

func TestName(t *testing.T) {
	for _, n := range []string{"Authorization", "X-CSRF-Token", "api_key", "apikey", "X-Key", "key", "password", "passwd",
		"passcode", "session_id", "PHPSESSID", "sid", "credential", "signature", "cookie", "pin", "card_pin", "otp", "cvc", "cvv"} {
		if !Name(n) {
			t.Errorf("Name(%q) = false, want true", n)
		}
	}
	for _, n := range []string{"author", "authority", "authors", "shipping", "monkey", "keyboard", "q", "page", "email", "pinned", "spinner"} {
		if Name(n) {
			t.Errorf("Name(%q) = true, want false", n)
		}
	}
}

// The names a capture marked before the rule moved here.
func TestNameCaptureCases(t *testing.T) {
	for name, want := range map[string]bool{
		"token": true, "access_token": true, "X-CSRF-Token": true, "csrfmiddlewaretoken": true, "api_key": true, "apiKey": true,
		"password": true, "userPassword": true, "client_secret": true, "session": true, "PHPSESSID": true, "sid": true, "auth": true,
		"Authorization": true, "author": false, "authors": false, ":authority": false, "name": false, "page": false, "id": false,
		"keyword": false, "description": false, "passenger": false,
	} {
		if got := Name(name); got != want {
			t.Errorf("Name(%q) = %v, want %v", name, got, want)
		}
	}
}
