package cli

import _ "embed"

// EnvelopeSchema is the JSON Schema of one line of --json output: the
// envelope {"ok":true,"data":…} or {"ok":false,"error":{code,message,hint}},
// or an event of a streamed command. docs/json.md describes the contract;
// the contract test runs every command's --json against this schema.
//
//go:embed envelope.schema.json
var EnvelopeSchema []byte
