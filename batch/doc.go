// Package batch runs one routine over many input rows on NATS JetStream.
//
// A batch is a routine (package routine) and a list of rows. [Engine.Submit]
// puts the rows on a work-queue stream; workers ([Engine.Work]) pull them
// with explicit acks, run the routine once per row with package replay, and
// write each row's [Result] to a key-value bucket. The same code runs on an
// embedded server ([StartServer]: file storage under the state folder,
// in-process or loopback connections only) or on a NATS cluster that workers
// on many machines share.
//
// The engine keeps JetStream's promises and adds three of its own:
//
//   - Never twice past a submit. Before a worker presses an approved
//     submit (or lets a non-GET request go), it writes the row's journal.
//     A row redelivered after its worker died whose journal shows such a
//     press is not run again: it comes back [StatusUncertain], with the
//     step it reached, for a person to check.
//   - Retries only where they can help: a row stopped by the network, a
//     timeout or a crashed browser runs again, up to the batch's Retries;
//     a row stopped by its page (replaced, verify, sign-in, …) does not.
//   - Keys: with [Spec.Key] set, a row whose key already finished (ok or
//     uncertain) for the same routine, in this batch or an earlier one, is
//     skipped, so a batch submitted again runs only what is left.
//
// Secrets never enter the stream: a row names them, as
// {"password": {"secret": "env:PW"}}, {"secret": "file:/run/pw"} or
// {"secret": "prompt"} (secret.ParseRef), and the worker reads the value
// from its [Secrets]: a `waymark worker` from its own environment and
// files ([EnvSecrets]), the daemon from the [Vault] the submitting command
// filled over its socket (in memory, for that batch only). A row whose
// secret is not there is held as [StatusNeedsSecret], never failed, until
// [Engine.Resume] puts it back.
//
// An api step whose recipe names a sign-in routine (relogin) signs in
// again in the row's session when the site refuses it, once, as a replay
// does: [Bundle] reads each such routine next to the routine file, through
// the approval authority, into [Spec.SignIns]; a row gives its variables
// too ([Spec.Variables]), its secrets by reference like the rest. A row the
// site still refuses stops as [CauseAuth], not retried.
//
// Browsers are leased per row from a [Pool] of endpoints, each with a
// maximum of sessions; the leases live in a key-value bucket with a time to
// live, so an endpoint a dead worker held comes free on its own. A session
// is kept warm between rows of the same routine.
package batch
