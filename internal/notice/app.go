package notice

import (
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/outline"
)

// appWords are what an app-install banner says.
var appWords = phrases{
	"open in app", "open in the app", "open the app", "get the app", "use the app", "download the app",
	"install the app", "continue in app", "continue in the app", "switch to the app", "try the app",
	"view in app", "view in the app", "open app", "get app", "install app", "better in the app",
	"in der app offnen", "app offnen", "app herunterladen", "zur app", "in der app",
	"ouvrir dans l application", "ouvrir l application", "telecharger l application", "ouvrir l appli",
	"abrir en la aplicacion", "abrir en la app", "abrir la app", "descargar la app", "usar la app",
	"apri nell app", "apri l app", "scarica l app", "apri nell applicazione",
	"abrir no app", "abrir no aplicativo", "baixar o app", "abrir na app",
	"open in de app", "download de app", "openen in app",
	"otworz w aplikacji", "pobierz aplikacje", "otworz aplikacje",
	"oppna i appen", "ladda ner appen", "abn i appen", "hent appen",
	"smartbanner", "smart banner", "app banner",
}

// dismissWords are the controls that close a banner without doing what it
// asks. Never "open", "install", "download", "sign in".
var dismissWords = phrases{
	"close", "dismiss", "not now", "no thanks", "maybe later", "later", "continue in browser",
	"continue on web", "continue to website", "stay on web", "stay on the website", "use the website",
	"use website", "continue with browser", "continue in the browser", "=x",
	"schliessen", "nicht jetzt", "spater", "im browser fortfahren", "weiter im browser", "webseite nutzen",
	"fermer", "pas maintenant", "plus tard", "continuer dans le navigateur", "rester sur le site",
	"cerrar", "ahora no", "mas tarde", "continuar en el navegador", "seguir en la web",
	"chiudi", "non ora", "piu tardi", "continua nel browser",
	"fechar", "agora nao", "mais tarde", "continuar no navegador",
	"sluiten", "niet nu", "doorgaan in browser",
	"zamknij", "nie teraz", "pozniej", "kontynuuj w przegladarce",
	"stang", "inte nu", "senare", "luk", "ikke nu", "senere",
}

// closeGlyphs are icon-only close buttons whose name is the glyph itself.
var closeGlyphs = map[string]bool{"×": true, "✕": true, "✖": true, "╳": true, "⨯": true, "x": true, "X": true}

// dismisses reports whether control n closes what it is in.
func dismisses(n *outline.Node, nn string) bool {
	return closeGlyphs[strings.TrimSpace(say(n))] || dismissWords.in(nn)
}

// Limits of the search around an app banner's words.
const (
	appBefore = 6
	appAfter  = 10
)

// detectAppBanner finds words asking to open or install an app with a
// dismiss control near them. Without a dismiss control it is a link in a
// footer ("Get the app"), not a banner in the way.
func detectAppBanner(pg *page, claimed map[*outline.Node]bool) []Notice {
	for i, it := range pg.items {
		hint := it.norm + norm(attr(it.n, "id")+" "+attr(it.n, "class"))
		if !appWords.in(hint) || len(it.norm) > 300 || inClaimed(pg, i, claimed) || !pg.visible(it.n) {
			continue
		}
		var dismiss, open *outline.Node
		if pressable(it.n) {
			open = it.n
		}
		for _, j := range pg.near(i, appBefore, appAfter) {
			n := pg.items[j].n
			if pressable(n) && pg.visible(n) && dismisses(n, pg.items[j].norm) {
				dismiss = n
				break
			}
		}
		if dismiss == nil {
			continue
		}
		d := map[string]string{}
		if dismiss.Ref != "" {
			d["dismiss"] = dismiss.Ref
		}
		if open != nil && open.Ref != "" {
			d["open"] = open.Ref
		}
		pg.claim(i, claimed)
		what := say(it.n)
		if what == "" {
			what = "app banner"
		}
		return []Notice{{
			Kind:    calls.NoticeAppBanner,
			Message: "app banner " + quote(what, 80) + " with its dismiss control " + control{n: dismiss, name: dismissName(dismiss)}.label(),
			Detail:  d,
		}}
	}
	return nil
}

// dismissName is what a dismiss control says, "close" for an unnamed one.
func dismissName(n *outline.Node) string {
	if s := say(n); s != "" {
		return s
	}
	return "close"
}

// Dismisses reports whether a control named label closes the popup it
// sits in without doing what the popup asks ("No thanks", "Not now",
// "Close", a close glyph): the words a recorded dismissal is told by
// (routine.MarkDismissal). A label that also says a commit word
// ("Close and subscribe") is not one: the caller checks that too.
func Dismisses(label string) bool {
	return closeGlyphs[strings.TrimSpace(label)] || dismissWords.in(norm(label))
}
