package calls

import (
	"encoding/json"
	"errors"
)

// Popup is what stood in an action's way: an overlay that appeared over
// the page since the last look ([ErrPopup]), or the element covering the
// action's control at its press point ([CoveredError]). A recorder reads
// it from the failed action ([PopupOf]) to tell that the next action may
// be its dismissal; a replay reads it to close the popup with the
// dismissal the routine recorded.
type Popup struct {
	// Kind is the overlay's kind (dialog, box, sheet, scrim, or a notice
	// kind such as cookie-banner), or "covered" for a cover.
	Kind string `json:"kind"`
	// Text is what the popup says (clipped by the driver); page text.
	Text string `json:"text,omitempty"`
	// Buttons are the labels of the controls in the popup, as the page
	// names them (aria-label, else their text); empty when not known.
	Buttons []string `json:"buttons,omitempty"`
	// By is, for a cover, the covering element as the driver describes
	// it (role, id or class, "name").
	By string `json:"by,omitempty"`
}

// Describe names the popup for people: its kind and the start of its
// text, or what covered the control.
func (p *Popup) Describe() string {
	if p == nil {
		return "a popup"
	}
	text := p.Text
	if r := []rune(text); len(r) > 60 {
		text = string(r[:59]) + "…"
	}
	kind := p.Kind
	if kind == "" || kind == "covered" || kind == "scrim" || kind == "sheet" {
		kind = "popup"
	}
	switch {
	case text != "":
		return kind + ` "` + text + `"`
	case p.By != "":
		return p.By
	}
	return "a " + kind
}

// coveredData is how a [CoveredError] travels as an error's data (over
// the daemon's socket), for [PopupOf] on the far side.
type coveredData struct {
	Covered *Popup `json:"covered"`
}

// PopupOf returns the popup that made an action fail: the overlay of an
// [ErrPopup], or the cover of a [CoveredError] (in this process, or as
// the daemon sent it). False for any other error.
func PopupOf(err error) (*Popup, bool) {
	if err == nil {
		return nil, false
	}
	var ce *CoveredError
	if errors.As(err, &ce) {
		return ce.popup(), true
	}
	data := DataOf(err)
	if len(data) == 0 {
		return nil, false
	}
	if errors.Is(err, ErrPopup) {
		var p Popup
		if json.Unmarshal(data, &p) == nil {
			return &p, true
		}
		return nil, false
	}
	var cd coveredData
	if errors.Is(err, ErrNotInteractable) && json.Unmarshal(data, &cd) == nil && cd.Covered != nil {
		return cd.Covered, true
	}
	return nil, false
}

func (e *CoveredError) popup() *Popup {
	return &Popup{Kind: "covered", Text: e.Text, Buttons: e.Buttons, By: e.By}
}

// data is the cover as an error's data.
func (e *CoveredError) data() json.RawMessage {
	b, err := json.Marshal(coveredData{Covered: e.popup()})
	if err != nil {
		return nil
	}
	return b
}
