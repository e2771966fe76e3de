package discover

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A description is the site's, and the site may be hostile: libopenapi
// builds the whole model of what it is given, every schema and every
// operation, and a 5 MB description of schemas that refer to each other
// took it half a minute and 400 MB (one of 33,000 paths, 700 MB). So it
// is given only what discovery reads (openAPI): the version, the servers
// (Swagger 2: host, basePath, schemes, produces), each path's GET and
// parameters, and what those may refer to (the components' parameters,
// responses and path items; Swagger 2's parameters and responses), with
// every schema, example, header, link, callback and body left out (a
// response's media types stay, without what they hold). At most
// maxOpenAPIPaths paths with a GET are kept, in the order of their
// paths, and a description that still holds more than maxOpenAPINodes
// nodes is refused.
const (
	maxOpenAPIPaths = 1000
	maxOpenAPINodes = 200_000
)

// errOpenAPITooBig refuses a description too big to read even pruned.
var errOpenAPITooBig = errors.New("too big to read (more than 200,000 parameters, responses and media types)")

// openAPIKept are the top-level keys discovery reads.
var openAPIKept = map[string]bool{
	"openapi": true, "swagger": true, "info": true, "servers": true,
	"host": true, "basePath": true, "schemes": true, "produces": true,
	"paths": true, "components": true, "parameters": true, "responses": true,
}

// componentsKept are the components a kept part may refer to.
var componentsKept = map[string]bool{"parameters": true, "responses": true, "pathItems": true}

// prunedKeys are left out wherever they are below the top level: none
// holds anything discovery reads, and schemas are where descriptions
// (and hostile ones) are big and tangled.
var prunedKeys = map[string]bool{
	"schema": true, "schemas": true, "items": true, "examples": true, "example": true,
	"headers": true, "links": true, "callbacks": true, "requestBody": true,
	"requestBodies": true, "securitySchemes": true, "security": true,
	"externalDocs": true, "allOf": true, "anyOf": true,
	"oneOf": true, "not": true, "properties": true,
}

// pruneOpenAPI returns the part of description b that discovery reads, as
// YAML (which libopenapi reads as it reads JSON).
func pruneOpenAPI(b []byte) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("not an OpenAPI description: %v", firstLine(err))
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("not an OpenAPI description (no openapi or swagger version)")
	}
	root := doc.Content[0]
	keepKeys(root, func(k string) bool { return openAPIKept[k] })
	nodes := 0
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i].Value, root.Content[i+1]
		switch k {
		case "paths":
			keepGetPaths(v)
			nodes += pruneNamed(v)
		case "components":
			keepKeys(v, func(k string) bool { return componentsKept[k] })
			for j := 1; j < len(v.Content); j += 2 {
				nodes += pruneNamed(v.Content[j])
			}
		case "parameters", "responses": // Swagger 2's, by name
			nodes += pruneNamed(v)
		case "info":
			keepKeys(v, func(k string) bool { return k == "title" || k == "version" })
		default:
			nodes += prune(v)
		}
	}
	if nodes > maxOpenAPINodes {
		return nil, errOpenAPITooBig
	}
	return yaml.Marshal(&doc)
}

// keepKeys leaves in mapping m only the keys keep says yes to.
func keepKeys(m *yaml.Node, keep func(string) bool) {
	if m.Kind != yaml.MappingNode {
		return
	}
	kept := m.Content[:0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if keep(m.Content[i].Value) {
			kept = append(kept, m.Content[i], m.Content[i+1])
		}
	}
	m.Content = kept
}

// keepGetPaths leaves in the paths object the paths with a GET (or a
// $ref, a path item defined elsewhere), maxOpenAPIPaths at most in the
// order of their paths, each with its GET and parameters only.
func keepGetPaths(paths *yaml.Node) {
	if paths.Kind != yaml.MappingNode {
		return
	}
	type pair struct{ k, v *yaml.Node }
	var kept []pair
	for i := 0; i+1 < len(paths.Content); i += 2 {
		k, v := paths.Content[i], paths.Content[i+1]
		if !strings.HasPrefix(k.Value, "/") || v.Kind != yaml.MappingNode {
			continue
		}
		keepKeys(v, func(k string) bool { return k == "get" || k == "parameters" || k == "$ref" })
		if len(v.Content) > 0 && !(len(v.Content) == 2 && v.Content[0].Value == "parameters") {
			kept = append(kept, pair{k, v})
		}
	}
	sort.SliceStable(kept, func(i, j int) bool { return kept[i].k.Value < kept[j].k.Value })
	kept = kept[:min(len(kept), maxOpenAPIPaths)]
	paths.Content = paths.Content[:0]
	for _, p := range kept {
		paths.Content = append(paths.Content, p.k, p.v)
	}
}

// prune leaves out prunedKeys and extensions (x-…) below n and counts the
// nodes left. An alias is not followed: the node it names is pruned where
// it is defined.
func prune(n *yaml.Node) int {
	count := 1
	switch n.Kind {
	case yaml.MappingNode:
		keepKeys(n, func(k string) bool { return !prunedKeys[k] && !strings.HasPrefix(k, "x-") })
		for i := 1; i < len(n.Content); i += 2 {
			count += prune(n.Content[i])
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			count += prune(c)
		}
	}
	return count
}

// pruneNamed prunes the values of a mapping whose keys are names (paths,
// components), which may be any word: a parameter named "items" stays.
func pruneNamed(m *yaml.Node) int {
	if m.Kind != yaml.MappingNode {
		return prune(m)
	}
	count := 1
	for i := 1; i < len(m.Content); i += 2 {
		count += prune(m.Content[i])
	}
	return count
}
