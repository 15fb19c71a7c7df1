package fileread

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRead: a regular file within its bound reads whole; a larger one, a
// directory and /dev/zero are refused at once, each error naming the
// path and what was wrong (a named pipe: fileread_unix_test.go).
func TestRead(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f")
	require.NoError(t, os.WriteFile(name, []byte("0123456789"), 0o644))
	data, err := Read(name, 10)
	require.NoError(t, err)
	assert.Equal(t, "0123456789", string(data))
	_, err = Read(name, 9)
	assert.ErrorContains(t, err, name+": 10 bytes, more than the 9")

	_, err = Read(dir, 100)
	assert.ErrorContains(t, err, dir+" is a directory, not a regular file")
	_, err = Read(filepath.Join(dir, "missing"), 100)
	assert.ErrorIs(t, err, os.ErrNotExist)

	if _, err := os.Stat("/dev/zero"); err == nil {
		_, err = Read("/dev/zero", 100)
		assert.ErrorContains(t, err, "/dev/zero is a character device, not a regular file")
	}
}

// TestFieldError: the message names the field and its files, and the
// cause stays reachable with errors.Is.
func TestFieldError(t *testing.T) {
	cause := errors.New("no such file")
	e := &FieldError{Field: "GameFiles", Files: []string{"a.pdn", "b.pdn"}, Err: cause}
	assert.Equal(t, "GameFiles a.pdn b.pdn: no such file", e.Error())
	assert.ErrorIs(t, e, cause)
	assert.Equal(t, "Fixed: bad name", (&FieldError{Field: "Fixed", Err: errors.New("bad name")}).Error())
}
