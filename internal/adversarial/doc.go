// Package adversarial is waymark's hostile-page suite: tests that attack
// the promises the README makes (a submit needs approval, a secret never
// reaches a prompt, page text stays inside the fence, a blocked host is
// never reached) with pages written to break them, on a loopback server
// that counts every request it receives and a model stub that logs every
// prompt it is sent.
//
// The package's only non-test code is the harness ([Server], [Model]), so
// that other packages' tests can attack their own areas the same way
// (from an external test package, package x_test, since this imports pilot):
//
//	srv := adversarial.NewServer(t, map[string]string{"/": page})
//	... drive the browser at srv.URL("/") ...
//	if n := srv.Count("POST", "/pay"); n != 0 { t.Fatalf("%d POSTs reached the server", n) }
//
//	m := adversarial.Wrap(scripted.New(...))
//	... run the pilot with m ...
//	m.NoLeak(t, "482913")    // no byte run of the secret reached any prompt
//	m.Fenced(t, "INJECTED")  // the page's marker appears only inside the fence
package adversarial
