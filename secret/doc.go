// Package secret is the one home of waymark's secret heuristic: the
// credential patterns, the entropy fallback for opaque tokens, and the
// values known to be secret in a run (shared/DESIGN.md, invariant 2).
//
// A secret travels as a [Value], which prints, logs and marshals as
// "[redacted]"; only [Value.Reveal] gives its bytes. Text that may hold a
// secret goes through [Set.Redact] (known values and the heuristic) or the
// package-level [Redact] (heuristic only) before it reaches a prompt, an
// outline, a stream event, a log or a file. [NewHandler] wraps a
// [log/slog.Handler] so that every log record is redacted on the way out.
//
// What the heuristic does not call a secret, on purpose: git SHAs and other
// runs of hex digits (hashes, trace ids), UUIDs (identifiers), URL paths
// made of words, base64 in data: URIs (images), and long ordinary words.
// Those are identifiers or content, and masking them would make outlines
// and logs useless. A hex API key is therefore caught only as a known value
// or when it is assigned to a credential-like name ("api_key=…").
package secret
