package testfiles

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDir checks that Dir finds testdata/draughts of this repository and
// that Path names files in it.
func TestDir(t *testing.T) {
	d, err := Dir()
	require.NoError(t, err)
	assert.True(t, filepath.IsAbs(d), d)
	assert.Equal(t, "draughts", filepath.Base(d))
	assert.Equal(t, "testdata", filepath.Base(filepath.Dir(d)))
	fi, err := os.Stat(d)
	require.NoError(t, err)
	assert.True(t, fi.IsDir())
	assert.Equal(t, filepath.Join(d, "SOURCES.md"), Path(t, "SOURCES.md"))
}

// TestFindFromTempModule checks that find looks in the module root above
// the working directory, and names the path it wanted when the folder is
// absent.
func TestFindFromTempModule(t *testing.T) {
	top := t.TempDir()
	root := filepath.Join(top, "repo")
	pkg := filepath.Join(root, "a", "b")
	require.NoError(t, os.MkdirAll(pkg, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "go.mod"), []byte("module x\n"), 0o644))
	t.Chdir(pkg)

	want := filepath.Join(root, rel)
	d, err := find()
	require.Error(t, err)
	assert.Equal(t, want, d)
	assert.ErrorContains(t, err, want)
	assert.ErrorIs(t, err, os.ErrNotExist)

	require.NoError(t, os.MkdirAll(want, 0o755))
	d, err = find()
	require.NoError(t, err)
	assert.Equal(t, want, d)
}

// TestPathFailsOnMissingFile checks that a missing file fails the test,
// naming its path, instead of skipping it.
func TestPathFailsOnMissingFile(t *testing.T) {
	ft := &fakeTB{TB: t}
	func() {
		defer func() { recover() }()
		Path(ft, "no-such-file.pdn")
	}()
	assert.True(t, ft.failed)
	assert.Contains(t, ft.msg, "no-such-file.pdn")
}

// fakeTB records a Fatalf instead of ending the test.
type fakeTB struct {
	testing.TB
	failed bool
	msg    string
}

func (f *fakeTB) Helper() {}

func (f *fakeTB) Fatalf(format string, args ...any) {
	f.failed = true
	f.msg = fmt.Sprintf(format, args...)
	panic("fatal")
}
