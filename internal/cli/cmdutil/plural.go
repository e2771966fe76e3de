package cmdutil

import "fmt"

// Count is "1 step", "2 steps": n and the word, plural when n is not 1.
// The plural is the word with an s unless given.
func Count(n int, word string, plural ...string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	if len(plural) > 0 {
		return fmt.Sprintf("%d %s", n, plural[0])
	}
	return fmt.Sprintf("%d %ss", n, word)
}
