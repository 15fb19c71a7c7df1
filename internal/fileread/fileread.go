// Package fileread reads the files a person names (a book, weights, an
// opening deck, games to review) whole and safely: only regular files,
// since a device such as /dev/zero never ends and a named pipe blocks the
// reader until a writer comes, and at most as many bytes as the file's
// format can hold, so that a wrong file is refused instead of filling
// memory.
package fileread

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Open opens the regular file at path for reading. A path that is not a
// regular file (a directory, a device, a named pipe, a socket) is refused
// without being opened, with an error naming it and saying what it is;
// other errors are os.Open's (*os.PathError, naming the path).
func Open(path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			pe.Op = "open" // what the reader was doing, as os.Open says it
		}
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is %s, not a regular file", path, kind(st.Mode()))
	}
	return os.Open(path)
}

// Read returns the contents of the regular file at path (Open's checks),
// of at most max bytes; a larger file is refused with an error naming it
// and the bound.
func Read(path string, max int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > max {
		return nil, fmt.Errorf("%s: %d bytes, more than the %d a file of its kind can hold", path, st.Size(), max)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: more than the %d bytes a file of its kind can hold", path, max)
	}
	return data, nil
}

// kind names the file type of a mode that is not a regular file.
func kind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "not a plain file (" + m.Type().String() + ")"
}

// FieldError is an error about an input of a job: Field names the job's
// field at fault (a Go field name such as "GameFiles"; the command line
// maps it to its flag), Files the files concerned (empty when Err names
// them itself).
type FieldError struct {
	Field string
	Files []string
	Err   error
}

// Error returns "Field FILE...: Err".
func (e *FieldError) Error() string {
	if len(e.Files) == 0 {
		return e.Field + ": " + e.Err.Error()
	}
	return e.Field + " " + strings.Join(e.Files, " ") + ": " + e.Err.Error()
}

// Unwrap returns Err.
func (e *FieldError) Unwrap() error { return e.Err }
