package siteapi

import (
	_ "embed"
)

// Schema is the JSON Schema of a recipe file (schema/api.schema.json).
//
//go:embed schema/api.schema.json
var Schema []byte
