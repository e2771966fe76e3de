package mind2web

import (
	"strings"
	"testing"
)

func TestParseTasks(t *testing.T) {
	arr := `[{"task_id":"a","confirmed_task":"Find a flight","website":"https://www.example.com/","reference_length":5,"level":"medium"}]`
	tasks, err := ParseTasks([]byte(arr))
	if err != nil || len(tasks) != 1 || tasks[0].ReferenceLength != 5 || tasks[0].Level != "medium" {
		t.Fatalf("array: %+v %v", tasks, err)
	}
	lines := "{\"task_id\":\"a\",\"confirmed_task\":\"x\",\"website\":\"http://a.test\"}\n\n{\"task_id\":\"b\",\"confirmed_task\":\"y\",\"website\":\"https://b.test/\"}\n"
	if tasks, err := ParseTasks([]byte(lines)); err != nil || len(tasks) != 2 {
		t.Fatalf("lines: %+v %v", tasks, err)
	}
	for _, bad := range []struct{ in, want string }{
		{``, "no task"},
		{`[]`, "no task"},
		{`[{"confirmed_task":"x","website":"https://a.test"}]`, "no task_id"},
		{`[{"task_id":"a","website":"https://a.test"}]`, "no confirmed_task"},
		{`[{"task_id":"a","confirmed_task":"x","website":"file:///etc/passwd"}]`, "not an http(s) address"},
		{`[{"task_id":"a","confirmed_task":"x","website":"https://a.test"},{"task_id":"a","confirmed_task":"y","website":"https://a.test"}]`, "comes twice"},
		{"{\"task_id\":\"a\"\n", "line 1"},
	} {
		if _, err := ParseTasks([]byte(bad.in)); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: %v, want an error saying %q", bad.in, err, bad.want)
		}
	}
}
