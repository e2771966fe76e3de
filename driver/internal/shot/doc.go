// Package shot draws on a screenshot just captured, never on the page:
// it turns boxes in the viewport's CSS pixels into rectangles of the
// image, blacks out the ones a mask hides (secrets, --mask) and outlines
// the ones a highlight points at.
//
// It is one of the driver's feature rooms (driver/doc.go, Layout): it
// never imports driver. Finding the boxes (the elements, the fields a
// secret was typed into) is the core's; this package gets them as [Box]es.
package shot
