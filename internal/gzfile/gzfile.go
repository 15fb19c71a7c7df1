// Package gzfile opens files that may be gzip-compressed (the game files in
// learn/games and the match games in learn/sprt are): the reader gives the
// decompressed contents when the file starts with the gzip magic bytes
// 1f 8b, the bytes as they are otherwise.
package gzfile

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"os"

	"github.com/damka-draughts/damka/internal/fileread"
)

// File is an open file's contents; Gzip reports that they are decompressed.
// Read errors of a damaged gzip stream come from Read.
type File struct {
	io.Reader
	Gzip bool
	f    *os.File
	z    *gzip.Reader
}

// Open opens path. Errors: fileread.Open's (they name the path: a missing
// file, or one that is not a regular file, such as a device or a named
// pipe, which would never end), or a gzip header error prefixed by the
// path.
func Open(path string) (*File, error) {
	f, err := fileread.Open(path)
	if err != nil {
		return nil, err
	}
	br := bufio.NewReader(f)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		z, err := gzip.NewReader(br)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return &File{Reader: z, Gzip: true, f: f, z: z}, nil
	}
	return &File{Reader: br, f: f}, nil
}

// Close closes the file (and the gzip reader).
func (g *File) Close() error {
	if g.z != nil {
		g.z.Close()
	}
	return g.f.Close()
}
