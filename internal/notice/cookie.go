package notice

import (
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/outline"
)

// cookieWords mark a consent banner's text, in the languages of the EU and
// a few more. "cookie" covers most of them ("Cookies", "cookies utilisés",
// "plików cookie"); the others name the consent or the data protection.
var cookieWords = phrases{
	"cookie*", "consent*", "gdpr", "tracking", "datenschutz*", "einwillig*",
	"zustimmung", "consentement", "consentimiento", "consenso", "toestemming",
	"zgod*", "ciasteczk*", "samtyck*", "samtykk*", "kakor", "evaste*",
	"sutik*", "suti*", "souhlas*", "privacy choices", "your privacy",
	"~クッキー", "~쿠키", "~隐私", "~隱私",
}

// Buttons of a banner, by what answering with them does. The lists are
// tried in the order of answer: a refusal wins over a word it shares with
// an acceptance ("Continue without accepting", "Accept only essential"),
// and settings win over "consent" ("Manage consent").
var (
	rejectWords = phrases{
		"reject*", "decline*", "deny", "refuse*", "disagree", "do not accept", "don t accept", "do not consent", "don t consent",
		"continue without*", "without accepting", "no thanks", "opt out",
		"ablehnen", "alle ablehnen", "verweigern", "ohne zustimmung*", "nicht einverstanden",
		"refuser", "tout refuser", "je refuse", "sans accepter", "continuer sans*",
		"rechazar*", "rechazo", "no acepto", "sin aceptar", "continuar sin*",
		"rifiuta*", "rifiuto", "non accetto", "continua senza*",
		"rejeitar*", "recusar*", "nao aceito",
		"weiger*", "afwijzen", "niet akkoord", "doorgaan zonder*",
		"odrzu*", "nie zgadzam sie", "nie akceptuj*", "kontynuuj bez*",
		"avvisa*", "avboj*", "neka", "fortsatt utan*",
		"afvis*", "afslaa", "afsla", "fortsaet uden*",
		"hylkaa*", "odmitnout*", "elutasit*",
	}
	necessaryWords = phrases{
		"necessary only", "only necessary", "strictly necessary", "necessary cookies only",
		"essential only", "only essential", "essentials only", "required only", "only required",
		"nur notwendig*", "nur essenziell*", "nur erforderlich*", "nur technisch*", "nur funktional*",
		"necessaires uniquement", "uniquement les cookies necessaires", "uniquement necessaires", "seulement les necessaires",
		"solo necesarias", "solo las necesarias", "solo esenciales", "solo las esenciales", "solo cookies necesarias",
		"solo necessari*", "solo i necessari", "solo tecnici", "solo essenziali",
		"apenas necessarios", "apenas os necessarios", "so necessarios", "apenas essenciais",
		"alleen noodzakelijk*", "alleen functionele", "alleen essentiele", "alleen vereiste",
		"tylko niezbedne", "tylko wymagane", "tylko konieczne",
		"endast nodvandiga", "bara nodvandiga", "kun nodvendige", "kun noedvendige",
		"vain valttamattomat", "pouze nezbytne", "csak a szukseges*",
		"accept necessary", "accept only necessary", "allow necessary", "use necessary cookies only",
		"notwendige akzeptieren", "notwendige cookies akzeptieren", "accepter les necessaires",
	}
	settingsWords = phrases{
		"settings", "preferences", "customi*", "manage*", "more options", "options", "choices", "configure", "details",
		"einstellungen", "anpassen", "verwalten", "mehr optionen", "individuell*",
		"parametres", "personnaliser", "gerer", "configurer", "preferences",
		"configuracion", "configurar", "personalizar", "gestionar", "preferencias", "mas opciones",
		"impostazioni", "personalizza", "gestisci", "preferenze", "altre opzioni",
		"definicoes", "preferencias", "gerir", "configuracoes",
		"instellingen", "aanpassen", "beheren", "voorkeuren",
		"ustawienia", "dostosuj", "zarzadzaj", "preferencje",
		"installningar", "anpassa", "hantera", "indstillinger", "tilpas", "administrer",
		"asetukset", "nastaveni", "beallitasok",
	}
	acceptWords = phrases{
		"accept*", "allow*", "agree*", "consent", "=ok", "=okay", "=got it", "=i understand", "=understood",
		"yes i m happy", "that s ok",
		"akzeptier*", "zustimmen", "einverstanden", "annehmen", "alle zulassen", "zulassen", "erlauben", "alle annehmen",
		"accepter", "tout accepter", "j accepte", "autoriser", "d accord",
		"aceptar*", "acepto", "permitir*", "de acuerdo",
		"accett*", "consenti", "va bene",
		"aceitar*", "aceito", "concordo", "permitir",
		"accepteer*", "akkoord", "toestaan", "alles toestaan",
		"akceptuj*", "zaakceptuj*", "zgadzam sie", "zezwol*", "zgoda",
		"acceptera*", "godkann", "tillat*", "jag godkanner",
		"accepter alle", "accepter", "tillad*", "godkend",
		"hyvaksy*", "salli*", "prijmout*", "souhlasim", "povolit*", "elfogad*",
	}
)

// Detail keys of the cookie banner's answers.
const (
	AnswerReject    = "reject"
	AnswerNecessary = "necessary-only"
	AnswerAccept    = "accept"
	AnswerSettings  = "settings"
)

// answer classifies what a banner button does, "" for none of the answers.
func answer(n string) string {
	switch {
	case necessaryWords.in(n):
		return AnswerNecessary
	case rejectWords.in(n):
		return AnswerReject
	case settingsWords.in(n):
		return AnswerSettings
	case acceptWords.in(n):
		return AnswerAccept
	}
	return ""
}

// Limits of the search around a banner's text.
const (
	maxBannerText = 1200 // a longer run is an article, not a banner
	bannerBefore  = 8    // items before the text where its buttons may be
	bannerAfter   = 40   // items after it
)

// detectCookieBanner finds the first text that speaks of cookies or consent
// with a refusal or an acceptance button near it, in the same container. A
// page that only mentions cookies has no such buttons and gives no banner.
func detectCookieBanner(pg *page, claimed map[*outline.Node]bool) []Notice {
	for i, it := range pg.items {
		if !says(it.n) || len(it.norm) > maxBannerText || !cookieWords.in(it.norm) || inClaimed(pg, i, claimed) {
			continue
		}
		found := map[string]control{}
		var order []control
		for _, j := range pg.near(i, bannerBefore, bannerAfter) {
			n := pg.items[j].n
			if !pressable(n) || !pg.visible(n) {
				continue
			}
			a := answer(pg.items[j].norm)
			if a == "" {
				continue
			}
			c := control{n: n, name: say(n)}
			if _, ok := found[a]; !ok {
				found[a] = c
				order = append(order, c)
			}
		}
		_, rej := found[AnswerReject]
		_, nec := found[AnswerNecessary]
		_, acc := found[AnswerAccept]
		if !rej && !nec && !acc {
			continue
		}
		d := map[string]string{}
		for a, c := range found {
			if c.n.Ref != "" {
				d[a] = c.n.Ref
			}
		}
		pg.claim(i, claimed)
		return []Notice{{
			Kind:    calls.NoticeCookieBanner,
			Message: "cookie banner " + quote(pg.heading(i), 80) + " with buttons: " + labels(order),
			Detail:  d,
		}}
	}
	return nil
}

// says reports whether n is a node whose words are page text: a text run, a
// heading or a named container.
func says(n *outline.Node) bool {
	switch n.Role {
	case "text", "heading", "paragraph", "dialog", "alertdialog", "region":
		return n.Name != ""
	}
	return false
}

// near returns the indexes from i-before to i+after that share i's
// container, in order.
func (pg *page) near(i, before, after int) []int {
	box := pg.items[i].box
	var out []int
	for j := max(0, i-before); j < len(pg.items) && j <= i+after; j++ {
		if box < 0 || pg.within(j, box) {
			out = append(out, j)
		}
	}
	return out
}

// heading returns the title of the banner whose text is item i: a heading
// just before it or the container's name, else the text itself.
func (pg *page) heading(i int) string {
	if b := pg.items[i].box; b >= 0 && pg.items[b].n.Name != "" && pg.items[b].n.Role != "iframe" {
		return pg.items[b].n.Name
	}
	for j := i; j >= max(0, i-3); j-- {
		if pg.items[j].n.Role == "heading" {
			return pg.items[j].n.Name
		}
	}
	return pg.items[i].n.Name
}

// overlays are the containers a banner can be drawn as; claiming one keeps
// it from being reported again as a dialog. A banner's text inside main or
// an article claims nothing.
var overlays = map[string]bool{
	"dialog": true, "alertdialog": true, "region": true, "complementary": true,
	"banner": true, "contentinfo": true, "iframe": true,
}

// claim marks the overlay that item i is, or sits in, as reported.
func (pg *page) claim(i int, claimed map[*outline.Node]bool) {
	b := i
	if !boxRoles[pg.items[i].n.Role] {
		b = pg.items[i].box
	}
	if b >= 0 && overlays[pg.items[b].n.Role] {
		claimed[pg.items[b].n] = true
	}
}

// inClaimed reports whether item i is inside a container already reported.
func inClaimed(pg *page, i int, claimed map[*outline.Node]bool) bool {
	for j := i; j >= 0; j = pg.items[j].parent {
		if claimed[pg.items[j].n] {
			return true
		}
	}
	return false
}

func labels(cs []control) string {
	const maxLabels = 6
	parts := make([]string, 0, len(cs))
	for i, c := range cs {
		if i == maxLabels {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, c.label())
	}
	return strings.Join(parts, ", ")
}
