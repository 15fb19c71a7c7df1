package gzfile

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOpenPlainAndGzip(t *testing.T) {
	dir := t.TempDir()
	text := []byte("[Event \"x\"]\n1. 11-15 23-19 *\n")
	plain := filepath.Join(dir, "a.pdn")
	require.NoError(t, os.WriteFile(plain, text, 0o644))
	var zb bytes.Buffer
	zw := gzip.NewWriter(&zb)
	_, err := zw.Write(text)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	gz := filepath.Join(dir, "a.pdn.gz")
	require.NoError(t, os.WriteFile(gz, zb.Bytes(), 0o644))

	for _, c := range []struct {
		path string
		gzip bool
	}{{plain, false}, {gz, true}} {
		f, err := Open(c.path)
		require.NoError(t, err)
		got, err := io.ReadAll(f)
		require.NoError(t, err)
		assert.Equal(t, text, got, c.path)
		assert.Equal(t, c.gzip, f.Gzip, c.path)
		require.NoError(t, f.Close())
	}

	bad := filepath.Join(dir, "bad.gz")
	require.NoError(t, os.WriteFile(bad, zb.Bytes()[:5], 0o644))
	_, err = Open(bad)
	assert.ErrorContains(t, err, bad+": ")
	_, err = Open(filepath.Join(dir, "none"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}
