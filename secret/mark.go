package secret

// Masked stands for a secret's value wherever one is shown but not named:
// a password field's value in an outline, a form's password in an
// approval, a recorded secret in `record stop`. It is always the same
// length, so it tells nothing of the value.
const Masked = "••••"

// Mark is what stands for the secret called name in masked text:
// «secret:NAME». [Set.Redact] writes it, and so does every mask by
// position (a field a secret was typed into).
func Mark(name string) string { return "«secret:" + name + "»" }

// anonymous is the mark of a secret the heuristic found, with no name.
const anonymous = "«secret»"
