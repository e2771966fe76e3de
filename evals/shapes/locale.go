package shapes

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// locale is how a page writes its values: money, dates, yes and no, the
// words where a number should be, and its paging controls.
type locale struct {
	Tag      string
	currency string
	before   bool   // the currency before the amount
	group    string // thousands separator
	decimal  string
	minor    bool     // amounts have hundredths (not yen)
	Nulls    []string // what stands where a price is not given
	Yes, No  string   // availability in words
	Next     string   // a next-page link
	More     string   // a "load more" button
	months   []string
	dateFmt  string // "%d %s %d" order: day, month, year as dmy, mdy or ymd
	heads    map[string]string
}

var locales = []*locale{
	{Tag: "en-US", currency: "$", before: true, group: ",", decimal: ".", minor: true,
		Nulls: []string{"on request", "n/a", "—", "TBA"}, Yes: "In stock", No: "Out of stock", Next: "Next", More: "Load more",
		months: strings.Fields("January February March April May June July August September October November December"), dateFmt: "mdy"},
	{Tag: "en-GB", currency: "£", before: true, group: ",", decimal: ".", minor: true,
		Nulls: []string{"POA", "—", "n/a", "TBC"}, Yes: "In stock", No: "Sold out", Next: "Next", More: "Show more",
		months: strings.Fields("January February March April May June July August September October November December"), dateFmt: "dmy"},
	{Tag: "de", currency: "€", group: ".", decimal: ",", minor: true,
		Nulls: []string{"Preis auf Anfrage", "—", "k. A."}, Yes: "Auf Lager", No: "Ausverkauft", Next: "Weiter", More: "Mehr laden",
		months: strings.Fields("Januar Februar März April Mai Juni Juli August September Oktober November Dezember"), dateFmt: "d.my",
		heads: map[string]string{"name": "Artikel", "sku": "Art.-Nr.", "price": "Preis", "in_stock": "Verfügbarkeit", "title": "Titel", "author": "Autor", "published": "Erschienen", "posted": "Datum", "comments": "Kommentare", "location": "Ort", "salary": "Gehalt", "sale_price": "Angebot"}},
	{Tag: "fr", currency: "€", group: "\u202f", decimal: ",", minor: true,
		Nulls: []string{"Prix sur demande", "—", "n.c."}, Yes: "En stock", No: "Rupture de stock", Next: "Suivant", More: "Voir plus",
		months: strings.Fields("janvier février mars avril mai juin juillet août septembre octobre novembre décembre"), dateFmt: "dmy",
		heads: map[string]string{"name": "Produit", "sku": "Réf.", "price": "Prix", "in_stock": "Disponibilité", "title": "Titre", "author": "Auteur", "published": "Parution", "posted": "Date", "comments": "Commentaires", "location": "Lieu", "salary": "Salaire", "sale_price": "Promo"}},
	{Tag: "ja", currency: "¥", before: true, group: ",", decimal: ".", minor: false,
		Nulls: []string{"お問い合わせ", "—"}, Yes: "在庫あり", No: "在庫切れ", Next: "次へ", More: "もっと見る", dateFmt: "ja",
		heads: map[string]string{"name": "商品名", "sku": "品番", "price": "価格", "in_stock": "在庫", "title": "タイトル", "author": "著者", "published": "発売日", "posted": "日付", "comments": "コメント", "location": "勤務地", "salary": "年収", "sale_price": "セール価格"}},
}

// money writes an amount as the locale does ("1.299,00 €").
func (l *locale) money(v float64) string {
	var n string
	if l.minor {
		c := int64(math.Round(v * 100))
		n = group(c/100, l.group) + l.decimal + fmt.Sprintf("%02d", c%100)
	} else {
		n = group(int64(math.Round(v)), l.group)
	}
	if l.before {
		return l.currency + n
	}
	return n + "\u00a0" + l.currency
}

// amount is what a price is in the locale: whole yen, else hundredths.
func (l *locale) amount(cents int) float64 {
	if !l.minor {
		return float64(cents)
	}
	return float64(cents) / 100
}

// count writes a whole number with the locale's grouping.
func (l *locale) count(n int) string { return group(int64(n), l.group) }

func group(n int64, sep string) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteString(sep)
		}
		b.WriteRune(c)
	}
	return b.String()
}

// date writes a day in words, as the locale does ("3. März 2026").
func (l *locale) date(t time.Time) string {
	switch l.dateFmt {
	case "mdy":
		return fmt.Sprintf("%s %d, %d", l.months[t.Month()-1], t.Day(), t.Year())
	case "d.my":
		return fmt.Sprintf("%d. %s %d", t.Day(), l.months[t.Month()-1], t.Year())
	case "ja":
		return fmt.Sprintf("%d年%d月%d日", t.Year(), t.Month(), t.Day())
	}
	return fmt.Sprintf("%d %s %d", t.Day(), l.months[t.Month()-1], t.Year())
}

// head is a column's header in the locale.
func (l *locale) head(field string) string {
	if h, ok := l.heads[field]; ok {
		return h
	}
	return map[string]string{"name": "Product", "sku": "SKU", "price": "Price", "in_stock": "Availability", "title": "Title", "author": "Author",
		"published": "Published", "posted": "Posted", "comments": "Comments", "location": "Location", "salary": "Salary", "sale_price": "Sale"}[field]
}
