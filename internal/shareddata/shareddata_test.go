package shareddata

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDir checks that Dir finds the folder when it exists and otherwise
// reports where it looked, and that Skip skips only in the second case.
func TestDir(t *testing.T) {
	d, err := Dir()
	assert.True(t, filepath.IsAbs(d), d)
	assert.Equal(t, "draughts", filepath.Base(d))
	if err != nil {
		assert.True(t, os.IsNotExist(err), err)
		return
	}
	fi, err := os.Stat(d)
	require.NoError(t, err)
	assert.True(t, fi.IsDir())
	assert.Equal(t, filepath.Join(d, "x.pdn"), Path(t, "x.pdn"))
}

// TestFindFromTempModule checks both places find looks in: shared/ inside
// the module root wins over shared/ beside it, and neither gives an error.
func TestFindFromTempModule(t *testing.T) {
	top := t.TempDir()
	root := filepath.Join(top, "repo")
	pkg := filepath.Join(root, "a", "b")
	require.NoError(t, os.MkdirAll(pkg, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "go.mod"), []byte("module x\n"), 0o644))
	t.Chdir(pkg)

	_, err := find()
	assert.Error(t, err, "no shared folder anywhere")

	beside := filepath.Join(top, rel)
	require.NoError(t, os.MkdirAll(beside, 0o755))
	d, err := find()
	require.NoError(t, err)
	assert.Equal(t, beside, d)

	inside := filepath.Join(root, rel)
	require.NoError(t, os.MkdirAll(inside, 0o755))
	d, err = find()
	require.NoError(t, err)
	assert.Equal(t, inside, d)
}
