package notice

import (
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/outline"
)

// maxDialogButtons caps the buttons a dialog notice lists.
const maxDialogButtons = 6

// detectDialogs reports each visible dialog and alertdialog in the outline
// that a banner has not claimed, with its name and buttons.
func detectDialogs(pg *page, claimed map[*outline.Node]bool) []Notice {
	var out []Notice
	for i, it := range pg.items {
		n := it.n
		if n.Role != "dialog" && n.Role != "alertdialog" || !pg.visible(n) || inClaimed(pg, i, claimed) {
			continue
		}
		claimed[n] = true
		name := n.Name
		var cs []control
		d := map[string]string{"role": n.Role}
		for j := i + 1; j < len(pg.items) && pg.within(j, i); j++ {
			m := pg.items[j].n
			if name == "" && m.Role == "heading" {
				name = m.Name
			}
			if !pressable(m) || !pg.visible(m) {
				continue
			}
			c := control{n: m, name: say(m)}
			if c.name == "" {
				c.name = m.Attrs["title"]
			}
			if _, ok := d["close"]; !ok && m.Ref != "" && dismisses(m, norm(c.name)) {
				d["close"] = m.Ref
			}
			cs = append(cs, c)
		}
		if name == "" {
			name = firstText(pg, i)
		}
		msg := n.Role + " " + quote(name, 80)
		if len(cs) > 0 {
			msg += " with buttons: " + labels(cs[:min(len(cs), maxDialogButtons+1)])
		}
		out = append(out, Notice{Kind: calls.NoticeDialog, Message: msg, Detail: d})
	}
	return out
}

// firstText returns the first text run inside item i.
func firstText(pg *page, i int) string {
	for j := i + 1; j < len(pg.items) && pg.within(j, i); j++ {
		if pg.items[j].n.Role == "text" {
			return pg.items[j].n.Name
		}
	}
	return ""
}

// jsDialog is the notice of an open JavaScript dialog, which blocks the
// page until it is answered.
func jsDialog(d *JSDialog) Notice {
	typ := d.Type
	if typ == "" {
		typ = "alert"
	}
	return Notice{
		Kind:    calls.NoticeDialog,
		Message: "JavaScript " + typ + " " + quote(d.Message, 120) + " blocks the page until it is answered",
		Detail:  map[string]string{"role": "javascript", "type": typ},
	}
}
