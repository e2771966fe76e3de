//go:build !unix

package doctor

import "errors"

// freeSpace is not measured off Unix yet; the disk check warns so.
func freeSpace(string) (uint64, error) {
	return 0, errors.New("not measured on this system")
}
