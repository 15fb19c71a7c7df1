// frame.go: NUL framing of DXP messages over a byte stream.

package dxpwire

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// ErrTooLong is wrapped by the error Reader.ReadMessage returns for a
// message longer than MaxMessageLen bytes (no NUL within 128 bytes).
var ErrTooLong = errors.New("message longer than 127 characters without a NUL")

// FrameError reports bytes that are no message: an over-long run without a
// NUL. The stream stays usable: the reader skips to the next NUL.
type FrameError struct {
	Prefix []byte // the first bytes of the run (at most 32)
	Err    error  // ErrTooLong
}

// Error returns `dxp: message longer than 127 characters without a NUL
// (starts "...")`.
func (e *FrameError) Error() string {
	return fmt.Sprintf("dxp: %v (starts %q)", e.Err, e.Prefix)
}

// Unwrap returns Err.
func (e *FrameError) Unwrap() error { return e.Err }

// Reader splits a byte stream into DXP messages at NUL bytes. Messages may
// arrive split over many reads or several in one read. It is not safe for
// concurrent use.
type Reader struct {
	r          io.Reader
	buf        []byte // read buffer
	start, end int    // unread bytes are buf[start:end]
	msg        []byte // message being assembled
	skipping   bool   // discarding the rest of an over-long run
}

// NewReader returns a Reader of the messages in r.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: r, buf: make([]byte, 4096), msg: make([]byte, 0, MaxMessageLen+1)}
}

// ReadMessage returns the next message without its NUL. The slice is valid
// until the next call. Empty messages (two NULs in a row) are returned as
// empty slices. A run of more than MaxMessageLen bytes without a NUL gives
// a *FrameError (wrapping ErrTooLong) as soon as byte 128 arrives, and
// the reader then drops everything up to the next NUL, so an endless run
// never grows memory. At the end of the stream it returns io.EOF, or
// io.ErrUnexpectedEOF when a message was cut off; a read error of the
// underlying reader is returned as is.
func (r *Reader) ReadMessage() ([]byte, error) {
	r.msg = r.msg[:0]
	for {
		if r.start == r.end {
			n, err := r.r.Read(r.buf)
			if n > 0 {
				r.start, r.end = 0, n
			} else if err != nil {
				if err == io.EOF && (len(r.msg) > 0 || r.skipping) {
					r.skipping = false
					return nil, io.ErrUnexpectedEOF
				}
				return nil, err
			} else {
				continue
			}
		}
		chunk := r.buf[r.start:r.end]
		i := bytes.IndexByte(chunk, 0)
		if r.skipping {
			if i < 0 {
				r.start = r.end
				continue
			}
			r.start += i + 1
			r.skipping = false
			continue
		}
		take := chunk
		if i >= 0 {
			take = chunk[:i]
		}
		if room := MaxMessageLen - len(r.msg); len(take) > room {
			r.msg = append(r.msg, take[:room]...)
			r.start += room
			r.skipping = true
			prefix := append([]byte(nil), r.msg[:min(len(r.msg), 32)]...)
			return nil, &FrameError{Prefix: prefix, Err: ErrTooLong}
		}
		r.msg = append(r.msg, take...)
		if i >= 0 {
			r.start += i + 1
			return r.msg, nil
		}
		r.start = r.end
	}
}

// AppendFrame appends m's wire form and its terminating NUL to b.
func AppendFrame(b []byte, m Message) ([]byte, error) {
	out, err := m.AppendEncode(b)
	if err != nil {
		return b, err
	}
	return append(out, 0), nil
}

// WriteMessage writes m and its NUL to w in a single Write call.
func WriteMessage(w io.Writer, m Message) error {
	b, err := AppendFrame(make([]byte, 0, MaxMessageLen+1), m)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}
