package pilot

import "encoding/json"

// secretIn names the first secret template's placeholders bring in, or
// "". The request carries it (calls.ActRequest.Secret) and the driver
// then masks the field, and every field the typing changed, in every
// outline and screenshot of the session, however short the value: the
// one list of such fields is the driver's.
func secretIn(template string, vars Vars) string {
	for _, name := range placeholders(template) {
		if _, ok := vars.Secrets[name]; ok {
			return name
		}
	}
	return ""
}

// maskJSON returns a copy of v with known secrets masked in every string,
// through JSON: a page may echo a secret into its URL, its title or an
// element's name, and a result must not show it. Every form of a value
// the Set knows includes the JSON-escaped one, and a mark needs no
// escaping, so masking the encoded text masks each string. Should the
// masked text not decode, v is dropped rather than shown.
func maskJSON[T any](p *Pilot, v *T) *T {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	masked := p.mask(string(b))
	if masked == string(b) {
		return v
	}
	out := new(T)
	if err := json.Unmarshal([]byte(masked), out); err != nil {
		return nil
	}
	return out
}

// maskData marshals v, a value read from the page, with known secrets
// masked (maskJSON); should masking leave text that does not decode (a
// secret that was a bare number), the value is null rather than shown.
func (p *Pilot) maskData(v any) json.RawMessage {
	masked := maskJSON(p, &v)
	if masked == nil {
		return json.RawMessage("null")
	}
	b, _ := json.Marshal(*masked)
	return b
}
