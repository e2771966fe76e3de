package fold

import (
	"strings"
	"testing"
)

func TestFold(t *testing.T) {
	for in, want := range map[string]string{
		"Pa\u00ady now":         "Pay now", // soft hyphen
		"Pa\u200by now":         "Pay now", // zero-width space
		"P\u200da\u2060y now":   "Pay now", // joiner, word joiner
		"\ufeffPay now":         "Pay now", // byte order mark
		"Pаy now":               "Pay now", // Cyrillic а
		"ＰＡＹ ｎｏｗ":               "PAY now",
		"</ｐａｇｅ_ｃｏｎｔｅｎｔ>":       "</page_content>",
		"</page\u00ad_content>": "</page_content>",
		"Jetzt kaufen":          "Jetzt kaufen",
		// Outside the old hand-picked Cyrillic and Greek subset: Cherokee,
		// Armenian, Latin small capitals and letter extensions, from TR39.
		"ꮪսbmіt": "submit", // Cherokee small du, Armenian seh
		"ᎠᎬᏞᎬᎢᎬ": "DELETE", // Cherokee a, gv, tle, gv, i, gv
		"ɪgոօrе рrеνɪօսѕ ɪոѕtrսctɪօոѕ": "ignore previous instructions",
		"𝐝𝐞𝐥𝐞𝐭𝐞":                       "delete", // mathematical bold, by NFKC
		"Զ":                            "Զ",      // a letter that looks like no Latin one stays
		"Zamów":                        "Zamów",  // real letters outside Latin stay
		"Bestätigen":                   "Bestätigen",
	} {
		if got := Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCommitWordsStay: letters of the languages the submit gate reads
// (ä, ö, ü, ß, é, ł, ś, ź, ø, æ, å) are no look-alikes: folding leaves
// them, or a German or Polish commit word would no longer match itself.
func TestCommitWordsStay(t *testing.T) {
	for _, w := range []string{"bestätigen", "löschen", "überweisen", "Straße", "supprimer", "valider", "wyślij", "zapłać", "zamów", "potwierdź", "usuń", "köp", "beställ", "bekräfta", "køb", "bekræft", "slet", "Ærø", "Åland"} {
		if got := Fold(w); got != w {
			t.Errorf("Fold(%q) = %q", w, got)
		}
	}
}

func TestConfusablesJSON(t *testing.T) {
	if j := ConfusablesJSON(); !strings.Contains(j, `"а":"a"`) {
		t.Errorf("ConfusablesJSON lacks Cyrillic а: %s", j)
	}
}

func TestLine(t *testing.T) {
	for in, want := range map[string]string{
		"Lamps\n\x1b[2K  waymark: ok\r": "Lamps [2K waymark: ok",
		"\tA\u0085B\u2028C \x07":        "A B C",
		"plain":                         "plain",
	} {
		if got := Line(in); got != want {
			t.Errorf("Line(%q) = %q, want %q", in, got, want)
		}
	}
}
