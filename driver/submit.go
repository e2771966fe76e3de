package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/chromedp/cdproto/input"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/fold"
	"github.com/waymark-dev/waymark/secret"
)

// commitWords are the words of controls that send, pay, delete or confirm,
// in English and nine other European languages (issue 7). The gate asks
// before pressing a control that says one of them, or one that submits a
// form.
var commitWords = []string{
	// English
	"submit", "send", "pay", "pay now", "buy", "buy now", "purchase", "order", "place order", "checkout", "check out",
	"confirm", "delete", "remove", "destroy", "transfer", "subscribe", "donate", "publish", "book now",
	// German
	"senden", "absenden", "bezahlen", "jetzt bezahlen", "kaufen", "jetzt kaufen", "bestellen", "zahlungspflichtig bestellen",
	"bestätigen", "löschen", "entfernen", "überweisen",
	// French
	"envoyer", "payer", "acheter", "commander", "confirmer", "supprimer", "valider",
	// Spanish
	"enviar", "pagar", "comprar", "confirmar", "eliminar", "borrar", "realizar pedido",
	// Italian
	"invia", "paga", "acquista", "ordina", "conferma", "elimina", "cancella",
	// Portuguese
	"excluir", "apagar", "finalizar compra",
	// Dutch
	"verzenden", "versturen", "betalen", "kopen", "bevestigen", "verwijderen",
	// Polish
	"wyślij", "zapłać", "kup", "zamów", "potwierdź", "usuń",
	// Swedish
	"skicka", "betala", "köp", "beställ", "bekräfta", "ta bort", "radera",
	// Danish
	"betal", "køb", "bestil", "bekræft", "slet",
}

// commitPattern is commitWords as one alternation for the page-side
// regexp, built at the first gate rather than at start-up (every command
// is a process of its own).
var commitPattern = sync.OnceValue(func() string {
	ws := append([]string(nil), commitWords...)
	sort.Slice(ws, func(i, j int) bool { return len(ws[i]) > len(ws[j]) })
	for i, w := range ws {
		ws[i] = regexp.QuoteMeta(w)
	}
	return strings.Join(ws, "|")
})

// gate decides whether an action may go ahead: with Submits "ask", an
// action that would commit needs an approval, and an approval must still
// match the page. This is the check before acting, for its clear message;
// what it misses is held at the point of sending (sendgate.go). shown is
// the control as the page shows it, as its probe read it ("" when it read
// none), for an approval of a send held later (control.go).
func (s *Session) gate(ctx context.Context, t *tab, el *element, req calls.ActRequest, mode string) (shown string, err error) {
	if (req.Submits == "" || req.Submits == "allow") && req.Approve == nil {
		return "", nil
	}
	if mode == "" {
		return "", nil
	}
	if el == nil {
		// A key with no target goes to the focused element.
		f, err := s.focused(ctx, t)
		if err != nil || f == nil {
			return "", err
		}
		el = f
	}
	var probe struct {
		Why     string            `json:"why"`
		Control string            `json:"control"`
		Form    map[string]string `json:"form"`
		Target  string            `json:"target"`
		Fixed   []string          `json:"fixed"`
		Fields  map[string][]struct {
			Type         string `json:"type"`
			Autocomplete string `json:"autocomplete"`
			Words        string `json:"words"`
			Marked       bool   `json:"marked"`
		} `json:"fields"`
	}
	if err := el.callOn(ctx, jsSubmitProbe, &probe, commitPattern(), mode, confusables()); err != nil {
		return "", err
	}
	// The approval shows what the form would send, but never a secret: a
	// field a secret was typed into, or one secret.Field calls secret, is
	// secret.Masked; a value typed as a secret in the session, wherever
	// the page copied it (a hidden field), is its mark (registry.go). A
	// held send's approval masks the same way (sendgate.go, formOf).
	for name, fs := range probe.Fields {
		for _, f := range fs {
			if v := probe.Form[name]; v != "" && (f.Marked || secret.Field{Words: f.Words, Type: f.Type, Autocomplete: f.Autocomplete}.Secret()) {
				probe.Form[name] = secret.Masked
			}
		}
	}
	for name, v := range probe.Form {
		probe.Form[name] = s.mask(v)
	}
	if probe.Why == "" {
		return probe.Control, nil
	}
	info, err := s.pageInfo(ctx, t)
	if err != nil {
		return "", err
	}
	action := req.Kind
	switch {
	case req.Kind == calls.ActPress:
		action = "press " + req.Key
	case req.Kind == calls.ActType:
		action = "type (with Enter)"
	}
	want := calls.Approval{Action: action, URL: s.mask(info.URL), Control: probe.Control, Why: probe.Why, Form: probe.Form, Target: probe.Target, Fixed: probe.Fixed}
	if req.Approve != nil {
		if diff := approvalDiff(*req.Approve, want); diff != "" {
			return "", needsApproval(t.bind(want), fmt.Sprintf("the page changed since the approval: %s; nothing was pressed", diff))
		}
		return probe.Control, nil
	}
	if req.Submits == "ask" {
		return "", needsApproval(t.bind(want), want.Line()+", so it needs approval; nothing was pressed")
	}
	return probe.Control, nil
}

// confusables is the look-alike table the page-side probe folds names
// with, the same as internal/fold's.
var confusables = sync.OnceValue(func() json.RawMessage { return json.RawMessage(fold.ConfusablesJSON()) })

// keyMode says what a key press does to the element it goes to, for the
// probe: "enter" (Enter, Return, with any modifier), "space", or "" for a
// key that presses nothing.
func keyMode(evs []input.DispatchKeyEventParams) string {
	for _, e := range evs {
		switch e.Key {
		case "Enter":
			return "enter"
		case " ":
			return "space"
		}
	}
	return ""
}

// needsApproval is the error of an action held for approval. Its hint is
// the command line's: the ask came from --ask-submit (the two flags
// together are a usage error, so --allow-submit goes in its place) or
// from the config's submits = "ask" (--allow-submit is added). A program
// (calls.ProgramHint) and MCP (mcpHint) reword any hint that names
// --allow-submit as a whole.
func needsApproval(a calls.Approval, msg string) error {
	data, _ := json.Marshal(a)
	return &calls.Error{Kind: calls.ErrNeedsApproval, Msg: msg, Data: data,
		Hint: "review it, then run the command again with --allow-submit (in place of --ask-submit if you passed it)"}
}

// approvalDiff says how the page differs from what was approved, or "".
func approvalDiff(approved, now calls.Approval) string {
	switch {
	case approved.URL != now.URL:
		return fmt.Sprintf("the page is %s, not %s", now.URL, approved.URL)
	case approved.Control != now.Control:
		return fmt.Sprintf("the control is %s, not %s", calls.ShownControl(now.Control), calls.ShownControl(approved.Control))
	case approved.Target != now.Target:
		return fmt.Sprintf("the form goes to %s, not %s", now.Target, approved.Target)
	case !maps.Equal(approved.Form, now.Form):
		for k, v := range now.Form {
			if approved.Form[k] != v {
				return fmt.Sprintf("the form's %q changed", k)
			}
		}
		return "the form's fields changed"
	}
	return ""
}

// focused returns the focused element of the main frame, if any.
func (s *Session) focused(ctx context.Context, t *tab) (*element, error) {
	ids, err := s.queryCSS(ctx, t, ":focus")
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	return &element{tab: t, sess: t.sess, frame: t.mainFrame(), node: ids[0], what: "the focused element"}, nil
}
