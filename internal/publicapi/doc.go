// Package publicapi holds no code, only the tests that keep waymark's
// public Go API usable from outside this module: no exported signature of
// a public package names a type from internal/, and a scratch module that
// imports the public packages (secrets, a URL policy, a model, a replay)
// builds and vets.
package publicapi
