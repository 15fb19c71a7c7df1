// Package shareddata locates the project's shared data folder
// (shared/data/draughts: the real game, ballot and problem files) for the
// tests of every package, and skips a test that needs it when the checkout
// has none. It replaces the per-package copies of the same few lines.
//
// The folder is looked for in the module root (shared/ inside the checkout,
// as on the device machine) and beside it (the parent of the checkout, as
// in CI and the worktrees), in that order.
package shareddata

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// rel is the data folder relative to a shared/ folder's parent.
var rel = filepath.Join("shared", "data", "draughts")

var (
	once sync.Once
	dir  string
	err  error
)

// Dir returns the absolute path of the shared data folder, and an error
// saying where it was looked for when it is absent (Dir then still returns
// the path beside the checkout, so that a message can name it).
func Dir() (string, error) {
	once.Do(func() { dir, err = find() })
	return dir, err
}

func find() (string, error) {
	wd, werr := os.Getwd()
	if werr != nil {
		return rel, werr
	}
	root := wd
	for {
		if _, e := os.Stat(filepath.Join(root, "go.mod")); e == nil {
			break
		}
		up := filepath.Dir(root)
		if up == root { // no module root above: look beside the package directory
			root = wd
			break
		}
		root = up
	}
	inside := filepath.Join(root, rel)
	beside := filepath.Join(filepath.Dir(root), rel)
	for _, d := range []string{inside, beside} {
		if fi, e := os.Stat(d); e == nil && fi.IsDir() {
			return d, nil
		}
	}
	_, e := os.Stat(beside)
	return beside, e
}

// Skip skips t when the shared data folder is absent and otherwise returns
// its absolute path.
func Skip(t testing.TB) string {
	t.Helper()
	d, e := Dir()
	if e != nil {
		t.Skipf("shared data not present (%v)", e)
	}
	return d
}

// Path returns the absolute path of file name in the shared data folder,
// skipping t when the folder is absent.
func Path(t testing.TB, name string) string {
	t.Helper()
	return filepath.Join(Skip(t), name)
}
