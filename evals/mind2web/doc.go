// Package mind2web runs Online-Mind2Web's tasks over waymark's agent loop
// and judges each run the way WebJudge does: the task's key points first,
// then which screenshots show evidence, then the outcome from the key
// points, the actions taken and those screenshots.
//
// The task file is the benchmark's own format (a JSON array, or JSON
// Lines, of objects with task_id, confirmed_task, website,
// reference_length and level). [Run] opens each task's website in a
// session, lets [pilot.Pilot.Run] carry the task out with one model, and
// asks [Judge] for a verdict with the same or another model. The command
// in cmd/mind2web runs it against the live web with a model key; the eval
// in this folder (build tag evals) runs a small local task set on
// loopback with a scripted model, so the runner itself is tested.
//
// The judge never sees a page as instructions: the actions' words, which
// come from pages, reach it inside the pilot's page fence.
package mind2web
