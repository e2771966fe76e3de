// Package capture holds a session's network as a file a person can keep:
// the documents, XHR and fetch requests of a page and its frames, who sent
// each, the JSON and text they returned, and the frames of its WebSockets
// and event streams, with every secret replaced by a marker.
//
// A [File] is what `waymark capture stop FILE` writes (format
// "waymark.capture/1"; the driver records it, see calls.MethodCaptureStart).
// A marker («redacted:KIND:HASH», see [Marker]) is a keyed hash of the
// value: the same token gives the same marker everywhere in one capture,
// so `waymark api learn` can see that the bearer token a request sent is
// the value the page keeps in local storage ([File.State]) without either
// being readable. The key is drawn for each capture ([NewKey]) and never
// saved.
//
// A [Redactor] decides what is a secret: Authorization and
// Proxy-Authorization (the scheme is kept), Cookie and Set-Cookie values
// (names and attributes kept), headers, query parameters, form and JSON
// fields named like a secret ([secret.Name]: token, secret, password, API
// key, CSRF, session, auth…), and anywhere in text what package secret's
// heuristic finds (JWTs, key shapes such as sk-/ghp_/AKIA, card numbers
// passing Luhn, high-entropy runs, except in response bodies, whose ids
// and cursors a reader needs), plus the values typed as secrets in the
// session. A value once known (typed as a secret, or token-like: six
// characters or more with a digit, or sixteen or more) is replaced
// wherever it appears, inside larger strings and in its URL-encoded,
// JSON-escaped and base64 forms; a plain word found as a cookie's value
// is a marker there only.
// [Redactor.File] reads a capture twice so that a value found late
// is masked early too. A JSON body comes out re-encoded, its keys sorted.
//
// [ToHAR] gives the same capture as HAR 1.2 (from the redacted File: it
// redacts nothing itself); WebSocket and event-stream frames and the page
// state have no place in HAR 1.2 and are left out of it. [WriteFile]
// writes either 0600.
//
// API maturity: new in this release; fields may grow.
package capture
