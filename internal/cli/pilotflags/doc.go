// Package pilotflags is what the commands that use a model or a routine's
// inputs share: [PilotOptions] with --model, --base-url, --secret and
// --var and what they build (the pilot, its vars, the model), the sheet a
// pilot step reads, and a routine's sign-in for an API recipe. act,
// observe, extract, run, record, replay, test, mcp, api, form, sheet and
// doc import it instead of one another.
package pilotflags
