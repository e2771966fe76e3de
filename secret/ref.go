package secret

import (
	"errors"
	"os"
	"strings"
)

// Ref names where a secret's value is read, never the value: "env:VAR"
// (an environment variable), "file:PATH" (a file's first line; its end of
// line dropped) or "prompt" (typed at a terminal, without echo). It is the
// one grammar of a secret reference: the CLI's --secret name=REF and a
// batch row's {"secret": REF} both parse it with [ParseRef], so a source
// one of them takes the other takes too.
type Ref struct {
	Kind RefKind
	// Name is the variable of an env: reference, the path of a file: one,
	// and empty for prompt.
	Name string
}

// RefKind is where a [Ref] reads its value.
type RefKind string

// Kinds of [Ref].
const (
	RefEnv    RefKind = "env"
	RefFile   RefKind = "file"
	RefPrompt RefKind = "prompt"
)

// Errors of [ParseRef] and [Ref.Resolve]; a *RefError wraps one of them.
var (
	// ErrBadRef is a reference that is none of env:VAR, file:PATH, prompt.
	ErrBadRef = errors.New("not a secret reference")
	// ErrUnset is a reference whose value is not there: the variable is
	// empty or not set, the file is missing or empty, or there is no
	// terminal to type it at. It is the caller's to tell the person where
	// to put it (a batch holds the row as needs_secret).
	ErrUnset = errors.New("the secret is not set")
)

// RefError is a reference that could not be parsed or read.
type RefError struct {
	Ref    string // as written
	Reason string // what is wrong, for people: "PIN is empty or not set"
	Err    error  // ErrBadRef or ErrUnset
}

func (e *RefError) Error() string { return e.Reason }
func (e *RefError) Unwrap() error { return e.Err }

// RefHint is what a person writes instead of a bad reference.
const RefHint = "write env:VAR, file:PATH or prompt"

// ParseRef reads a reference. It never sees a value: a string that is not
// a reference is refused whole, without echoing it (it may be the secret
// itself, written where its name was wanted).
func ParseRef(s string) (Ref, error) {
	switch {
	case s == string(RefPrompt):
		return Ref{Kind: RefPrompt}, nil
	case strings.HasPrefix(s, "env:"):
		if name := s[len("env:"):]; validVar(name) {
			return Ref{Kind: RefEnv, Name: name}, nil
		}
		return Ref{}, &RefError{Ref: s, Reason: "env: names an environment variable: letters, digits and _", Err: ErrBadRef}
	case strings.HasPrefix(s, "file:"):
		if p := s[len("file:"):]; p != "" {
			return Ref{Kind: RefFile, Name: p}, nil
		}
		return Ref{}, &RefError{Ref: s, Reason: "file: names a file", Err: ErrBadRef}
	}
	return Ref{}, &RefError{Reason: "unknown source (" + RefHint + ")", Err: ErrBadRef}
}

// validVar says whether name is an environment variable's name as a shell
// writes one.
func validVar(name string) bool {
	if name == "" {
		return false
	}
	for i, c := range name {
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// String writes the reference back as it is parsed.
func (r Ref) String() string {
	if r.Kind == RefPrompt {
		return string(RefPrompt)
	}
	return string(r.Kind) + ":" + r.Name
}

// Sources are where [Ref.Resolve] reads. A nil field means that source is
// not available here: its references are [ErrUnset].
type Sources struct {
	// Getenv reads env: references.
	Getenv func(string) string
	// ReadFile reads file: references; [os.ReadFile] is the usual one.
	ReadFile func(string) ([]byte, error)
	// Prompt asks a person for the secret called name, without echo.
	Prompt func(name string) (string, error)
}

// Local are the sources of the calling process: its environment and its
// files, and no prompt.
func Local() Sources { return Sources{Getenv: os.Getenv, ReadFile: os.ReadFile} }

// Resolve reads the value of r as the secret called name (the name is for
// messages and masks). A value that is not there is an error wrapping
// [ErrUnset]; an error of the prompt is returned as it is.
func (r Ref) Resolve(src Sources, name string) (Value, error) {
	unset := func(reason string) (Value, error) {
		return Value{}, &RefError{Ref: r.String(), Reason: reason, Err: ErrUnset}
	}
	switch r.Kind {
	case RefEnv:
		if src.Getenv == nil {
			return unset(r.Name + " is not read here")
		}
		v := src.Getenv(r.Name)
		if v == "" {
			return unset(r.Name + " is empty or not set")
		}
		return New(name, v), nil
	case RefFile:
		if src.ReadFile == nil {
			return unset("the file " + r.Name + " is not read here")
		}
		b, err := src.ReadFile(r.Name)
		if err != nil {
			return unset(err.Error())
		}
		v := strings.TrimRight(string(b), "\r\n")
		if v == "" {
			return unset("the file " + r.Name + " is empty")
		}
		return New(name, v), nil
	case RefPrompt:
		if src.Prompt == nil {
			return unset("there is no terminal here to type it at")
		}
		v, err := src.Prompt(name)
		if err != nil {
			return Value{}, err
		}
		if v == "" {
			return unset("nothing was typed")
		}
		return New(name, v), nil
	}
	return Value{}, &RefError{Ref: r.String(), Reason: "unknown source (" + RefHint + ")", Err: ErrBadRef}
}
