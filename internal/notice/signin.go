package notice

import (
	"net/url"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/outline"
)

// signInWords are a sign-in page's words, in English and the languages of
// the submit gate.
var signInWords = phrases{
	"sign in", "signin", "sign on", "log in", "login", "log on", "logon",
	"anmelden", "anmeldung", "einloggen",
	"se connecter", "connexion", "s identifier", "identifiez vous", "connectez vous",
	"iniciar sesion", "inicia sesion", "acceder", "ingresar", "identificate",
	"accedi", "accesso", "entra",
	"entrar", "iniciar sessao", "inicie sessao",
	"inloggen", "aanmelden",
	"zaloguj*", "logowanie",
	"logga in", "inloggning",
	"log ind", "log pa",
	"kirjaudu*", "prihlasit*", "prihlaseni", "bejelentkez*",
}

// changeWords mark a password field that sets a password rather than
// proves one: a sign-up, reset or change form.
var changeWords = phrases{
	"new password", "confirm password", "confirm new", "repeat password", "retype password", "re enter password", "choose a password", "create a password",
	"neues passwort", "passwort bestatigen", "passwort wiederholen",
	"nouveau mot de passe", "confirmer le mot de passe", "confirmez",
	"nueva contrasena", "confirmar contrasena", "repetir contrasena", "repite",
	"nuova password", "conferma password", "ripeti",
	"nova senha", "confirmar senha", "confirme",
	"nieuw wachtwoord", "bevestig", "herhaal",
	"nowe haslo", "powtorz", "potwierdz",
	"nytt losenord", "bekrafta", "nyt adgangskode", "bekraeft", "gentag",
}

// detectSignIn reports a sign-in form: exactly one password field, none of
// whose words set a password, on a page whose title, headings, buttons or
// URL path say sign in. Two password fields, or one labelled "new" or
// "confirm", are a sign-up, reset or password-change form, which is not a
// sign-in page (the submit gate guards those).
func detectSignIn(pg *page) (Notice, bool) {
	pw := -1
	for i, it := range pg.items {
		if !isPassword(it.n) || !pg.visible(it.n) {
			continue
		}
		if pw >= 0 {
			return Notice{}, false // a second password field
		}
		if changeWords.in(norm(it.n.Name + " " + it.n.Label + " " + it.n.Attrs["placeholder"] + " " + it.n.Attrs["name"] + " " + it.n.Attrs["id"])) {
			return Notice{}, false
		}
		pw = i
	}
	if pw < 0 {
		return Notice{}, false
	}
	title := ""
	var submit *outline.Node
	if t := norm(pg.title); signInWords.in(t) {
		title = pg.title
	}
	for i, it := range pg.items {
		switch n := it.n; {
		case n.Role == "heading" && title == "" && signInWords.in(it.norm):
			title = n.Name
		case n.Role == "button" && submit == nil && i > pw && signInWords.in(it.norm):
			submit = n
		}
	}
	if title == "" && submit == nil && !signInPath(pg.in.URL) {
		return Notice{}, false
	}
	d := map[string]string{}
	p := pg.items[pw].n
	if p.Ref != "" {
		d["password"] = p.Ref
	}
	if u := username(pg, pw); u != nil && u.Ref != "" {
		d["username"] = u.Ref
	}
	msg := "sign-in page"
	if title != "" {
		msg += " " + quote(title, 80)
	}
	msg += ": a password field"
	if p.Ref != "" {
		msg += " [ref=" + p.Ref + "]"
	}
	if submit != nil {
		if submit.Ref != "" {
			d["submit"] = submit.Ref
		}
		msg += " and " + control{n: submit, name: say(submit)}.label()
	}
	return Notice{Kind: calls.NoticeSignIn, Message: msg, Detail: d}, true
}

// isPassword reports whether n is a password field.
func isPassword(n *outline.Node) bool {
	return n.Role == "textbox" && strings.EqualFold(n.Attrs["type"], "password")
}

// username returns the textbox just before the password field.
func username(pg *page, pw int) *outline.Node {
	for j := pw - 1; j >= 0 && j >= pw-12; j-- {
		if n := pg.items[j].n; n.Role == "textbox" || n.Role == "combobox" {
			return n
		}
	}
	return nil
}

// signInPath reports whether the URL's path names a sign-in page.
func signInPath(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	return signInWords.in(norm(u.Path))
}
