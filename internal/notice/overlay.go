package notice

import (
	"strings"

	"github.com/waymark-dev/waymark/calls"
)

// An overlay is a box drawn over the page (a fixed box over the centre, a
// sheet from the bottom, a modal dialog). The driver finds them by where
// they are drawn; ClassifyOverlay says what one is by its words, and which
// of its buttons may be pressed without asking.

// ClassifyOverlay returns the kind of an overlay from its text and its
// buttons' words: calls.NoticeCookieBanner, calls.NoticeAppBanner, or ""
// for any other. close is the index of the button that closes it without asking, or -1:
// for a cookie banner its least-tracking answer (necessary-only, else
// reject; never accept when a refusal exists, and nothing when there is
// only accept), for an app banner its own dismissal (never a control that
// installs, opens the app, signs in, accepts or buys).
func ClassifyOverlay(text string, buttons []string) (kind string, close int) {
	all := norm(text + " " + strings.Join(buttons, " "))
	switch {
	case cookieWords.in(all):
		best, bestRank := -1, 0
		for i, b := range buttons {
			rank := 0
			switch answer(norm(b)) {
			case AnswerNecessary:
				rank = 2
			case AnswerReject:
				rank = 1
			}
			if rank > bestRank {
				best, bestRank = i, rank
			}
		}
		return calls.NoticeCookieBanner, best
	case appWords.in(all):
		for i, b := range buttons {
			nb := norm(b)
			if (closeGlyphs[strings.TrimSpace(b)] || dismissWords.in(nb)) && !appWords.in(nb) {
				return calls.NoticeAppBanner, i
			}
		}
		return calls.NoticeAppBanner, -1
	}
	return "", -1
}
