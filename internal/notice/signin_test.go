package notice

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/outline"
)

func TestSignIn(t *testing.T) {
	form := func(title, head, user, pass, submit string) *outline.Node {
		return doc(title, heading(head), el("form", "", textbox(user, "e1"), password(pass, "e2"), btn(submit, "e3")))
	}
	tests := []struct {
		name string
		in   Input
		want *Notice
	}{
		{
			name: "english",
			in:   Input{URL: "https://github.com/login", Outline: form("Sign in to GitHub · GitHub", "Sign in to GitHub", "Username or email address", "Password", "Sign in")},
			want: &Notice{Kind: calls.NoticeSignIn, Message: `sign-in page "Sign in to GitHub · GitHub": a password field [ref=e2] and "Sign in" [ref=e3]`,
				Detail: map[string]string{"username": "e1", "password": "e2", "submit": "e3"}},
		},
		{name: "german", in: Input{Outline: form("Konto", "Anmelden", "E-Mail", "Passwort", "Anmelden")}, want: &Notice{Kind: calls.NoticeSignIn}},
		{name: "french", in: Input{Outline: form("Mon compte", "Connexion", "Adresse e-mail", "Mot de passe", "Se connecter")}, want: &Notice{Kind: calls.NoticeSignIn}},
		{name: "spanish", in: Input{Outline: form("Cuenta", "Bienvenido", "Correo", "Contraseña", "Iniciar sesión")}, want: &Notice{Kind: calls.NoticeSignIn}},
		{name: "italian", in: Input{Outline: form("Account", "Accedi", "Email", "Password", "Accedi")}, want: &Notice{Kind: calls.NoticeSignIn}},
		{name: "portuguese", in: Input{Outline: form("Conta", "Bem-vindo", "E-mail", "Senha", "Entrar")}, want: &Notice{Kind: calls.NoticeSignIn}},
		{name: "dutch", in: Input{Outline: form("Account", "Inloggen", "E-mailadres", "Wachtwoord", "Inloggen")}, want: &Notice{Kind: calls.NoticeSignIn}},
		{name: "polish", in: Input{Outline: form("Konto", "Witaj", "E-mail", "Hasło", "Zaloguj się")}, want: &Notice{Kind: calls.NoticeSignIn}},
		{name: "swedish", in: Input{Outline: form("Konto", "Logga in", "E-post", "Lösenord", "Fortsätt")}, want: &Notice{Kind: calls.NoticeSignIn}},
		{name: "danish", in: Input{Outline: form("Konto", "Velkommen", "E-mail", "Adgangskode", "Log ind")}, want: &Notice{Kind: calls.NoticeSignIn}},
		{name: "by url path only", in: Input{URL: "https://shop.example/users/sign_in", Outline: form("Shop", "Welcome back", "Email", "Password", "Continue")}, want: &Notice{Kind: calls.NoticeSignIn}},
		{
			name: "password change in account settings",
			in: Input{URL: "https://shop.example/account/settings", Outline: doc("Account settings — log in details", heading("Change password"),
				password("Current password", "e1"), password("New password", "e2"), password("Confirm new password", "e3"), btn("Update password", "e4"))},
		},
		{
			name: "one new password field",
			in:   Input{URL: "https://shop.example/login/reset", Outline: doc("Reset your password", password("New password", "e1"), btn("Save and log in", "e2"))},
		},
		{
			name: "sign-up",
			in:   Input{URL: "https://shop.example/join", Outline: doc("Create account", heading("Create your account"), textbox("Email", "e1"), password("Password", "e2"), btn("Create account", "e3"))},
		},
		{
			name: "sign-in link without a password field",
			in:   Input{Outline: doc("Shop", link("Sign in", "e1"), heading("Deals"))},
		},
		{
			name: "password field with no sign-in words",
			in:   Input{URL: "https://wifi.example/", Outline: doc("Wi-Fi", heading("Network key"), password("Key", "e1"), btn("Join", "e2"))},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := only(Detect(tt.in), calls.NoticeSignIn)
			if tt.want == nil {
				if len(got) != 0 {
					t.Fatalf("got %+v, want none", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("got %+v, want a sign-in notice", got)
			}
			if tt.want.Message == "" {
				if got[0].Detail["password"] != "e2" {
					t.Errorf("Detail = %v", got[0].Detail)
				}
				return
			}
			if d := cmp.Diff(*tt.want, got[0]); d != "" {
				t.Errorf("Detect (-want +got):\n%s", d)
			}
		})
	}
}
