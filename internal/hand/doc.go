// Package hand plans what a person's hand does at a page: where the pointer
// goes and when, how the wheel rolls a target into view, and the pace of
// typing. It is pure computation; the driver sends the events it plans.
//
// # What it is for
//
// Pages are written for people, and many behave differently when input
// arrives all at once: a hover menu opens only while the pointer travels
// across its trigger and closes if the pointer jumps; a search box
// debounces its input and fires only after a pause; a button animates into
// place and swallows a click that lands mid-animation. Moving, scrolling and
// typing at a person's pace lets such pages do what they do for people, so
// that what an agent sees and does matches what a person would see and do.
//
// # What it is not
//
// It is not a way to hide from, or to defeat, bot checks. waymark recognises
// a bot check (Cloudflare, reCAPTCHA and the rest) and stops to ask a person
// (issue 7 item 1); nothing here is meant to get past one. So this package
// has no fingerprint spoofing, no noise tuned against classifiers, and no
// feature whose only use would be to pass as human. Its constants come from
// published models of human movement (Fitts's law, minimum-jerk velocity
// profiles) and plain typing rates, chosen for plausibility, not stealth.
//
// # The plans
//
//   - [Path] plans one pointer movement: Fitts's-law duration, an early
//     velocity peak and a long tail, a slight bow, an overshoot and
//     correction past 200 px, in whole pixels. [Hand] keeps the pointer's
//     place on a page between movements.
//   - [Rest] is the pause before a press and [Hold] how long it is held.
//   - [Scroll] rolls the wheel one 100 px notch at a time.
//   - [Cadence] times typing key by key; [Timeline] flattens that into key
//     and Shift events. Typing never presses Enter.
//
// Plans are deterministic for a given seed or random source, so a replay
// can repeat them. API maturity: new, and not considered stable.
package hand
