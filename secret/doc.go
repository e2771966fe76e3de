// Package secret is the one home of everything waymark knows about
// secrets (shared/DESIGN.md, invariant 2): the credential patterns and the
// entropy fallback for opaque tokens, the values known to be secret in a
// run, which form fields hold secrets, how a masked secret is written,
// what a process waymark starts may inherit, and log redaction.
//
// A secret travels as a [Value], which prints, logs and marshals as
// "[redacted]"; only [Value.Reveal] gives its bytes. Text that may hold a
// secret goes through [Set.Redact] (known values and the heuristic) or the
// package-level [Redact] (heuristic only) before it reaches a prompt, an
// outline, a stream event, a log or a file; a known value is replaced by
// [Mark] («secret:NAME»), whatever its length once declared. [NewHandler]
// wraps a [log/slog.Handler] so that every log record is redacted on the
// way out. [Field] is the one rule for which fields hold a secret (a
// password, a CVC, a one-time code), whose values show as [Masked].
// [Environ] is the environment a daemon or a browser waymark starts gets:
// no model key, no variable a secret was read from.
//
// What the heuristic does not call a secret, on purpose: git SHAs and other
// runs of hex digits (hashes, trace ids), UUIDs (identifiers), URL paths
// made of words, base64 in data: URIs (images), and long ordinary words.
// Those are identifiers or content, and masking them would make outlines
// and logs useless. A hex API key is therefore caught only as a known value
// or when it is assigned to a credential-like name ("api_key=…").
package secret
