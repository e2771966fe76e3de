package mind2web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
)

// Task is one Online-Mind2Web task, in the benchmark's field names.
type Task struct {
	ID              string `json:"task_id"`
	Task            string `json:"confirmed_task"`
	Website         string `json:"website"`
	ReferenceLength int    `json:"reference_length,omitempty"` // the steps a person took
	Level           string `json:"level,omitempty"`            // easy, medium, hard
}

// ParseTasks reads a task file: a JSON array of tasks, or one task a line
// (JSON Lines). Every task must have an id, a task and an http(s) website;
// the error names the first that does not.
func ParseTasks(b []byte) ([]Task, error) {
	b = bytes.TrimSpace(b)
	var tasks []Task
	if bytes.HasPrefix(b, []byte("[")) {
		if err := json.Unmarshal(b, &tasks); err != nil {
			return nil, fmt.Errorf("the task file is not a JSON array of tasks: %w", err)
		}
	} else {
		for i, line := range bytes.Split(b, []byte("\n")) {
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			var t Task
			if err := json.Unmarshal(line, &t); err != nil {
				return nil, fmt.Errorf("line %d of the task file: %w (write one task object a line, or a JSON array)", i+1, err)
			}
			tasks = append(tasks, t)
		}
	}
	if len(tasks) == 0 {
		return nil, fmt.Errorf("the task file holds no task")
	}
	seen := map[string]bool{}
	for i, t := range tasks {
		switch {
		case strings.TrimSpace(t.ID) == "":
			return nil, fmt.Errorf("task %d has no task_id", i+1)
		case seen[t.ID]:
			return nil, fmt.Errorf("task_id %q comes twice", t.ID)
		case strings.TrimSpace(t.Task) == "":
			return nil, fmt.Errorf("task %s has no confirmed_task", t.ID)
		}
		seen[t.ID] = true
		u, err := url.Parse(t.Website)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("task %s: website %q is not an http(s) address", t.ID, t.Website)
		}
	}
	return tasks, nil
}
