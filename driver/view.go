package driver

import (
	"context"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/outline"
)

// Sizes below which drawn content does not count in a view's Graphics
// (calls.View): an icon is no chart, and an img smaller than a fifth of
// the view is a thumbnail or a logo, which the outline names by its alt.
const (
	minGraphicShare = 0.02
	minPictureShare = 0.20
)

// graphicBox is one element of drawn content in the view, clipped to it,
// in the viewport's CSS pixels.
type graphicBox struct{ X, Y, W, H float64 }

// viewGraphics is what js/view_graphics.js returns.
type viewGraphics struct {
	W     float64 `json:"w"`
	H     float64 `json:"h"`
	Boxes []struct {
		Tag string  `json:"tag"`
		X   float64 `json:"x"`
		Y   float64 `json:"y"`
		W   float64 `json:"w"`
		H   float64 `json:"h"`
	} `json:"boxes"`
}

// measureView measures the visible part of the page for a look that asks
// (SnapshotRequest.View): the drawn share from one script in our world
// over the top document (a canvas inside a cross-site frame is not seen:
// its frame's element is the outline's), and the controls and words on
// screen from the look's own tree. A page the script cannot run in gives
// nil: the pilot then sends no picture on its own.
func (s *Session) measureView(ctx context.Context, t *tab, root *outline.Node) *calls.View {
	var g viewGraphics
	if err := t.evalWorld(ctx, t.sess, t.mainFrame(), "("+jsViewGraphics+")()", &g); err != nil || g.W <= 0 || g.H <= 0 {
		return nil
	}
	v := &calls.View{Width: g.W, Height: g.H}
	var boxes []graphicBox
	for _, b := range g.Boxes {
		share := b.W * b.H / (g.W * g.H)
		if share < minGraphicShare || b.Tag == "img" && share < minPictureShare {
			continue
		}
		boxes = append(boxes, graphicBox{X: b.X, Y: b.Y, W: b.W, H: b.H})
	}
	v.Graphics = coverage(g.W, g.H, boxes)
	root.Walk(func(n *outline.Node, _ int) bool {
		if !n.InViewport {
			return true
		}
		if n.Role == "text" || n.Role == "heading" && !hasText(n) {
			v.Words += len(strings.Fields(n.Name)) // a heading's words are its name when it holds no text run
		}
		if n.Ref != "" {
			v.Controls++
			if strings.TrimSpace(n.Name) != "" {
				v.Named++
			}
		}
		return true
	})
	return v
}

// hasText reports whether n holds a text run of its own.
func hasText(n *outline.Node) bool {
	for _, c := range n.Children {
		if c.Role == "text" {
			return true
		}
	}
	return false
}

// coverageGrid is the side of the grid coverage samples the view on: a
// 64×64 grid measures a share to within about 2 %, plenty for a rule
// whose threshold is tens of percent.
const coverageGrid = 64

// coverage returns the share of a w×h view that boxes cover, overlaps
// counted once, by sampling the centres of a grid's cells.
func coverage(w, h float64, boxes []graphicBox) float64 {
	if len(boxes) == 0 || w <= 0 || h <= 0 {
		return 0
	}
	hit := 0
	for i := range coverageGrid {
		y := (float64(i) + 0.5) * h / coverageGrid
		for j := range coverageGrid {
			x := (float64(j) + 0.5) * w / coverageGrid
			for _, b := range boxes {
				if x >= b.X && x < b.X+b.W && y >= b.Y && y < b.Y+b.H {
					hit++
					break
				}
			}
		}
	}
	return float64(hit) / (coverageGrid * coverageGrid)
}
