package schemacheck

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// typeNames are the seven type names JSON Schema knows.
var typeNames = map[string]bool{
	"null": true, "boolean": true, "object": true, "array": true,
	"number": true, "integer": true, "string": true,
}

// checkTypes refuses a schema that names a type JSON Schema does not know,
// anywhere in its tree. The validator accepts {"type": "nonsense"} and then
// fails every value against it, so a command would spend a model call on
// answers no schema can take; the user's typo is better told at once.
//
// The walk goes through the library's Schema struct by reflection (every
// field that holds a *Schema, a slice or a map of them), so a keyword the
// library adds later is walked too.
func checkTypes(s *jsonschema.Schema) error {
	seen := map[*jsonschema.Schema]bool{}
	var walk func(s *jsonschema.Schema, at string) error
	walk = func(s *jsonschema.Schema, at string) error {
		if s == nil || seen[s] {
			return nil
		}
		seen[s] = true
		for _, t := range append([]string{s.Type}, s.Types...) {
			if t != "" && !typeNames[t] {
				return fmt.Errorf("the schema names the type %q at %s; JSON Schema knows %s", t, pointerOf(at), "null, boolean, object, array, number, integer and string")
			}
		}
		v := reflect.ValueOf(s).Elem()
		for i := 0; i < v.NumField(); i++ {
			f, name := v.Field(i), jsonName(v.Type().Field(i))
			switch x := f.Interface().(type) {
			case *jsonschema.Schema:
				if err := walk(x, at+"/"+name); err != nil {
					return err
				}
			case []*jsonschema.Schema:
				for j, c := range x {
					if err := walk(c, fmt.Sprintf("%s/%s/%d", at, name, j)); err != nil {
						return err
					}
				}
			case map[string]*jsonschema.Schema:
				for k, c := range x {
					if err := walk(c, at+"/"+name+"/"+k); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	return walk(s, "")
}

func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" || name == "-" {
		return f.Name
	}
	return name
}

func pointerOf(at string) string {
	if at == "" {
		return "the top"
	}
	return at
}
