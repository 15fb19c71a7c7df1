// Package testfiles locates the repository's data folder for tests,
// testdata/draughts at the module root (the real game, ballot and problem
// files; their sources are in testdata/draughts/SOURCES.md), for the tests
// of every package. A test that needs a file of it fails, naming the path,
// when the file is missing: the folder is part of every checkout.
package testfiles

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// rel is the data folder relative to the module root.
var rel = filepath.Join("testdata", "draughts")

var (
	once sync.Once
	dir  string
	err  error
)

// Dir returns the absolute path of the data folder, and an error saying
// where it was looked for when it is absent (Dir then still returns that
// path, so that a message can name it).
func Dir() (string, error) {
	once.Do(func() { dir, err = find() })
	return dir, err
}

// find looks for rel in the module root above the working directory (the
// package directory under go test).
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
		if up == root {
			return filepath.Join(wd, rel), fmt.Errorf("no go.mod above %s", wd)
		}
		root = up
	}
	d := filepath.Join(root, rel)
	fi, e := os.Stat(d)
	if e == nil && !fi.IsDir() {
		e = errors.New("not a directory")
	}
	if e != nil {
		return d, fmt.Errorf("data folder %s: %w", d, e)
	}
	return d, nil
}

// Must returns the absolute path of the data folder, failing t (t.Fatal,
// naming the path) when it is absent.
func Must(t testing.TB) string {
	t.Helper()
	d, e := Dir()
	if e != nil {
		t.Fatalf("test data missing: %v", e)
	}
	return d
}

// Path returns the absolute path of file name in the data folder, failing t
// (naming the path) when the file is missing.
func Path(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join(Must(t), name)
	if _, e := os.Stat(p); e != nil {
		t.Fatalf("test data missing: %v", e)
	}
	return p
}
