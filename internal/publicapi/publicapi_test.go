package publicapi

import (
	"bufio"
	"bytes"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/waymark-dev/waymark"

// public are the packages a program outside the module may import.
var public = []string{
	"calls", "driver", "pilot", "recipe", "routine", "replay", "secret", "policy", "netlog",
	"model", "model/anthropic", "model/openai", "model/rules", "model/scripted",
}

// root is the module's directory.
func root(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil || len(bytes.TrimSpace(out)) == 0 {
		t.Fatalf("go env GOMOD: %v %s", err, out)
	}
	return filepath.Dir(string(bytes.TrimSpace(out)))
}

// TestNoInternalTypeInThePublicAPI walks every exported name of the public
// packages (functions, types with their exported methods and fields,
// variables, constants) and fails on any type from an internal package:
// a program outside the module could not name it.
func TestNoInternalTypeInThePublicAPI(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the public packages' export data")
	}
	var paths []string
	for _, p := range public {
		paths = append(paths, module+"/"+p)
	}
	cmd := exec.Command("go", append([]string{"list", "-export", "-deps", "-f", "{{.ImportPath}} {{.Export}}"}, paths...)...)
	cmd.Dir = root(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -export: %v", err)
	}
	exports := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) == 2 {
			exports[f[0]] = f[1]
		}
	}
	imp := importer.ForCompiler(token.NewFileSet(), "gc", func(path string) (io.ReadCloser, error) {
		return os.Open(exports[path])
	})
	for _, path := range paths {
		pkg, err := imp.Import(path)
		if err != nil {
			t.Fatalf("import %s: %v", path, err)
		}
		for _, name := range pkg.Scope().Names() {
			obj := pkg.Scope().Lookup(name)
			if obj.Exported() {
				w := walker{t: t, seen: map[types.Type]bool{}}
				w.walk(strings.TrimPrefix(path, module+"/")+"."+name, obj.Type())
			}
		}
	}
}

type walker struct {
	t    *testing.T
	seen map[types.Type]bool
}

// walk reports every internal type reachable from t through what a
// program outside the module can see.
func (w walker) walk(where string, t types.Type) {
	if w.seen[t] {
		return
	}
	w.seen[t] = true
	switch t := t.(type) {
	case *types.Alias:
		w.walk(where, types.Unalias(t))
	case *types.Named:
		pkg := t.Obj().Pkg()
		if pkg == nil || !strings.HasPrefix(pkg.Path(), module) {
			return // the standard library's and other modules' types are theirs
		}
		if strings.Contains(pkg.Path()+"/", "/internal/") {
			w.t.Errorf("%s uses %s, an internal type", where, t)
			return
		}
		for i := range t.NumMethods() {
			if m := t.Method(i); m.Exported() {
				w.walk(where+"."+m.Name(), m.Type())
			}
		}
		w.walk(where, t.Underlying())
	case *types.Pointer:
		w.walk(where, t.Elem())
	case *types.Slice:
		w.walk(where, t.Elem())
	case *types.Array:
		w.walk(where, t.Elem())
	case *types.Chan:
		w.walk(where, t.Elem())
	case *types.Map:
		w.walk(where, t.Key())
		w.walk(where, t.Elem())
	case *types.Signature:
		for v := range t.Params().Variables() {
			w.walk(where, v.Type())
		}
		for v := range t.Results().Variables() {
			w.walk(where, v.Type())
		}
	case *types.Struct:
		for f := range t.Fields() {
			if f.Exported() {
				w.walk(where+"."+f.Name(), f.Type())
			}
		}
	case *types.Interface:
		for m := range t.Methods() {
			if m.Exported() {
				w.walk(where+"."+m.Name(), m.Type())
			}
		}
	}
}

// scratch is a program outside the module that uses the public API the
// way a Go program would: declare secrets, set a URL policy, pick a model,
// launch a browser and replay a routine, then read the result.
const scratch = `package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"

	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/model"
	"github.com/waymark-dev/waymark/model/anthropic"
	"github.com/waymark-dev/waymark/model/openai"
	"github.com/waymark-dev/waymark/model/rules"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/policy"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/secret"
)

func pickModel(name string) (pilot.Model, error) {
	opts := model.Options{APIKey: os.Getenv("MODEL_KEY"), BaseURL: os.Getenv("MODEL_URL"), Model: os.Getenv("MODEL_NAME")}
	switch name {
	case "anthropic":
		return anthropic.New(opts)
	case "openai":
		return openai.New(opts)
	}
	return rules.New(), nil
}

func main() {
	ctx := context.Background()
	password := secret.New("password", os.Getenv("SHOP_PASSWORD"))
	known := new(secret.Set)
	known.AddValue(password)

	access, err := policy.ParseAccess("loopback")
	if err != nil {
		log.Fatal(err)
	}
	pol, err := policy.New(policy.Options{Allow: []string{"shop.example"}, Block: []string{"ads.shop.example"}, PrivateNetwork: access})
	if err != nil {
		log.Fatal(err)
	}
	m, err := pickModel(os.Getenv("MODEL"))
	if errors.Is(err, pilot.ErrNoKey) {
		log.Fatal("set MODEL_KEY: ", err)
	}

	r, err := routine.Load(os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	b, err := driver.Launch(ctx, driver.Options{Policy: pol})
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	s, err := b.Session(ctx, "scratch")
	if err != nil {
		log.Fatal(err)
	}
	res, err := replay.Run(ctx, s, r, replay.Options{
		Vars:      map[string]string{"email": "ann@example.com"},
		Secrets:   map[string]secret.Value{"password": password},
		Model:     m,
		KeepHeals: replay.KeepAlways,
		Progress:  func(e replay.StepEvent) { fmt.Println(known.Redact(fmt.Sprint(e))) },
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, h := range res.Heals {
		fmt.Println("healed", h.Step, h.Before, "->", h.After)
	}
	if res.Routine != nil {
		if err := routine.Save(os.Args[1], res.Routine, known); err != nil {
			log.Fatal(err)
		}
	}
	if res.Cause != replay.CauseNone {
		fmt.Printf("stopped (%s): %s\nhint: %s\n", res.Cause, res.Message, res.Cause.Hint())
		os.Exit(1)
	}
	fmt.Printf("ok: %d steps, %d model calls\n", len(res.Steps), res.ModelCalls)
}
`

// TestScratchModule builds and vets a program in a module of its own that
// requires this one through a replace directive, offline: a public API
// that names an internal package, or a public package moved back under
// internal/, fails with "use of internal package … not allowed".
func TestScratchModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program against the whole module")
	}
	repo := root(t)
	dir := t.TempDir()
	gomod := "module example.com/scratch\n\ngo 1.26.0\n\nrequire " + module + " v0.0.0\n\nreplace " + module + " => " + repo + "\n"
	sum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"go.mod": []byte(gomod), "go.sum": sum, "main.go": []byte(scratch)} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"build", "-o", filepath.Join(dir, "scratch"), "."}, {"vet", "."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		// -mod=mod lets the scratch module's requirements be completed.
		// Not GOPROXY=off: a fresh module cache holds what waymark's own
		// build needs, not the go.mod files of the whole graph that
		// completing another module reads (go-logr/stdr's requirement
		// of go-logr/logr v1.2.2, seen on a fresh machine).
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s in the scratch module: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}
