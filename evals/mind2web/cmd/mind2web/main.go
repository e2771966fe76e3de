// Command mind2web runs Online-Mind2Web tasks against the live web with
// waymark's agent loop and judges each with a WebJudge-style judge:
//
//	ANTHROPIC_API_KEY=… go run ./evals/mind2web/cmd/mind2web --tasks Online_Mind2Web.json --limit 20 --out results.jsonl
//
// It needs network and a model key; in CI the eval beside this command
// runs a local task set with a scripted model instead. Submits are not
// allowed unless --allow-submit: a benchmark must not buy or post.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/evals/mind2web"
	"github.com/waymark-dev/waymark/model/anthropic"
	"github.com/waymark-dev/waymark/model/openai"
	"github.com/waymark-dev/waymark/pilot"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "mind2web:", err)
		os.Exit(1)
	}
}

func run() error {
	tasksFile := flag.String("tasks", "", "the task file: Online-Mind2Web's JSON array, or JSON Lines")
	provider := flag.String("provider", "anthropic", "anthropic or openai (an OpenAI-compatible server with --base-url)")
	agentModel := flag.String("model", "", "the agent's model; empty: the provider's default")
	judgeModel := flag.String("judge-model", "", "the judge's model; empty: the agent's")
	baseURL := flag.String("base-url", "", "the API's root, for a gateway or a local server")
	limit := flag.Int("limit", 0, "run at most this many tasks (0: all)")
	out := flag.String("out", "", "append each task's result to this file as a JSON line")
	allowSubmit := flag.Bool("allow-submit", false, "let the agent send forms (off: such a step ends the task)")
	timeout := flag.Duration("task-timeout", 10*time.Minute, "the longest one task may take, judge included")
	flag.Parse()
	if *tasksFile == "" {
		return fmt.Errorf("give --tasks FILE (Online-Mind2Web's task file)")
	}
	b, err := os.ReadFile(*tasksFile)
	if err != nil {
		return err
	}
	tasks, err := mind2web.ParseTasks(b)
	if err != nil {
		return err
	}
	if *limit > 0 && *limit < len(tasks) {
		tasks = tasks[:*limit]
	}
	agent, err := newModel(*provider, *agentModel, *baseURL)
	if err != nil {
		return err
	}
	judge := agent
	if *judgeModel != "" {
		if judge, err = newModel(*provider, *judgeModel, *baseURL); err != nil {
			return err
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	br, err := driver.Launch(ctx, driver.Options{})
	if err != nil {
		return err
	}
	defer br.Close()
	var w *os.File
	if *out != "" {
		if w, err = os.OpenFile(*out, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644); err != nil {
			return err
		}
		defer w.Close()
	}
	var results []mind2web.Result
	for i, t := range tasks {
		name := fmt.Sprintf("m2w-%d", i)
		s, err := br.Session(ctx, name)
		if err != nil {
			return err
		}
		r, err := mind2web.Run(ctx, s, t, mind2web.Options{Agent: agent, Judge: mind2web.Judge{Model: judge}, TaskTimeout: *timeout, AllowSubmit: *allowSubmit})
		br.CloseSession(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			r.Reason = err.Error()
		}
		results = append(results, r)
		fmt.Printf("%-40s %-8v %3d steps  %s\n", t.ID, verdictWord(r), r.Steps, r.Reason)
		if w != nil {
			line, _ := json.Marshal(r)
			fmt.Fprintln(w, string(line))
		}
		if ctx.Err() != nil {
			break
		}
	}
	sum, _ := json.Marshal(mind2web.Summarize(results))
	fmt.Println(string(sum))
	return nil
}

func verdictWord(r mind2web.Result) string {
	switch {
	case r.JudgeError != "":
		return "unjudged"
	case r.Verdict.Success:
		return "success"
	}
	return "failure"
}

// newModel builds one model of the provider, with the key from the
// provider's usual environment variable.
func newModel(provider, name, base string) (pilot.Model, error) {
	switch provider {
	case "anthropic":
		return anthropic.New(anthropic.Options{APIKey: os.Getenv("ANTHROPIC_API_KEY"), Model: name, BaseURL: base})
	case "openai":
		return openai.New(openai.Options{APIKey: os.Getenv("OPENAI_API_KEY"), Model: name, BaseURL: base})
	}
	return nil, fmt.Errorf("--provider must be anthropic or openai, got %q", provider)
}
