// Package modelhttp holds what the model providers share about calling an
// HTTP model API: bounded retries that honour Retry-After, per-try timeouts,
// and errors that wrap the pilot's sentinels with messages that say what to
// do.
package modelhttp
