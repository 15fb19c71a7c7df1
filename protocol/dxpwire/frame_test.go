package dxpwire

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chunkReader returns its data in reads of the given sizes (cycled).
type chunkReader struct {
	data  []byte
	sizes []int
	i     int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := c.sizes[c.i%len(c.sizes)]
	c.i++
	n = min(n, len(p), len(c.data))
	copy(p, c.data[:n])
	c.data = c.data[n:]
	return n, nil
}

// readAll reads every message of r until an error.
func readAll(r *Reader) ([]string, error) {
	var out []string
	for {
		m, err := r.ReadMessage()
		if err != nil {
			return out, err
		}
		out = append(out, string(m))
	}
}

func stream(msgs ...string) []byte {
	var b bytes.Buffer
	for _, m := range msgs {
		b.WriteString(m)
		b.WriteByte(0)
	}
	return b.Bytes()
}

func TestFrameSplitAcrossReads(t *testing.T) {
	msgs := []string{"R01Tornado voor Windows 4.0        W060065A", "M001205250422122320", "E00"}
	data := stream(msgs...)
	// One byte per read, and assorted odd sizes.
	for _, sizes := range [][]int{{1}, {2, 3}, {7}, {44, 1, 19}, {len(data)}} {
		r := NewReader(&chunkReader{data: data, sizes: sizes})
		got, err := readAll(r)
		assert.Equal(t, msgs, got, "sizes %v", sizes)
		assert.ErrorIs(t, err, io.EOF, "sizes %v", sizes)
	}
	r := NewReader(iotest.OneByteReader(bytes.NewReader(data)))
	got, err := readAll(r)
	assert.Equal(t, msgs, got)
	assert.ErrorIs(t, err, io.EOF)
}

func TestFrameManyInOneRead(t *testing.T) {
	var msgs []string
	for i := range 300 {
		msgs = append(msgs, "C"+strings.Repeat("x", i%126+1))
	}
	data := stream(msgs...)
	// A single Read returns everything (more than the 4 KiB buffer).
	r := NewReader(&chunkReader{data: data, sizes: []int{len(data)}})
	got, err := readAll(r)
	assert.Equal(t, msgs, got)
	assert.ErrorIs(t, err, io.EOF)
}

func TestFrameTooLong(t *testing.T) {
	long := strings.Repeat("C", 500)
	data := stream("E00", long, "E10")
	r := NewReader(&chunkReader{data: data, sizes: []int{3, 100}})
	m, err := r.ReadMessage()
	require.NoError(t, err)
	assert.Equal(t, "E00", string(m))
	_, err = r.ReadMessage()
	var fe *FrameError
	require.ErrorAs(t, err, &fe)
	assert.ErrorIs(t, err, ErrTooLong)
	assert.Equal(t, strings.Repeat("C", 32), string(fe.Prefix))
	// The reader resynchronises on the next NUL.
	m, err = r.ReadMessage()
	require.NoError(t, err)
	assert.Equal(t, "E10", string(m))
	_, err = r.ReadMessage()
	assert.ErrorIs(t, err, io.EOF)

	// Exactly 127 characters is a message; 128 is not.
	max := "C" + strings.Repeat("y", 126)
	r = NewReader(bytes.NewReader(stream(max, max+"z")))
	m, err = r.ReadMessage()
	require.NoError(t, err)
	assert.Equal(t, max, string(m))
	_, err = r.ReadMessage()
	assert.ErrorIs(t, err, ErrTooLong)
}

// endless is a stream that never sends a NUL.
type endless struct{ n int }

func (e *endless) Read(p []byte) (int, error) {
	if e.n > 1<<20 {
		return 0, errors.New("test: read too far")
	}
	for i := range p {
		p[i] = 'x'
	}
	e.n += len(p)
	return len(p), nil
}

func TestFrameEndlessRunIsAnError(t *testing.T) {
	e := &endless{}
	r := NewReader(e)
	_, err := r.ReadMessage()
	assert.ErrorIs(t, err, ErrTooLong)
	assert.LessOrEqual(t, e.n, 4096, "the error comes after the first read, not at the end of the run")
}

func TestFrameEOF(t *testing.T) {
	r := NewReader(bytes.NewReader([]byte("E00\x00M00")))
	m, err := r.ReadMessage()
	require.NoError(t, err)
	assert.Equal(t, "E00", string(m))
	_, err = r.ReadMessage()
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)

	r = NewReader(bytes.NewReader(nil))
	_, err = r.ReadMessage()
	assert.ErrorIs(t, err, io.EOF)

	boom := errors.New("boom")
	r = NewReader(iotest.ErrReader(boom))
	_, err = r.ReadMessage()
	assert.ErrorIs(t, err, boom)

	// Stray NULs are empty messages.
	r = NewReader(bytes.NewReader([]byte("\x00E00\x00")))
	got, err := readAll(r)
	assert.Equal(t, []string{"", "E00"}, got)
	assert.ErrorIs(t, err, io.EOF)
}

func TestWriteMessage(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WriteMessage(&b, &Move{Seconds: 12, From: 6, To: 11}))
	require.NoError(t, WriteMessage(&b, &GameEnd{}))
	assert.Equal(t, "M0012061100\x00E00\x00", b.String())
	assert.Error(t, WriteMessage(&b, &Chat{}))
	assert.Equal(t, "M0012061100\x00E00\x00", b.String(), "nothing written for a bad message")
}

// FuzzReader checks that any split of any stream gives the messages a
// plain split at NUL gives (over-long runs reported, never a panic).
func FuzzReader(f *testing.F) {
	f.Add([]byte("E00\x00M0012061100\x00"), uint8(1))
	f.Add(stream(strings.Repeat("x", 200), "E00"), uint8(7))
	f.Fuzz(func(t *testing.T, data []byte, size uint8) {
		n := int(size%64) + 1
		r := NewReader(&chunkReader{data: append([]byte(nil), data...), sizes: []int{n, 2*n + 1}})
		var want []string
		parts := bytes.Split(data, []byte{0})
		for i, p := range parts {
			if i == len(parts)-1 {
				break // the tail after the last NUL
			}
			if len(p) > MaxMessageLen {
				want = append(want, "<too long>")
			} else {
				want = append(want, string(p))
			}
		}
		var got []string
		for range len(data) + 2 {
			m, err := r.ReadMessage()
			if errors.Is(err, ErrTooLong) {
				got = append(got, "<too long>")
				continue
			}
			if err != nil {
				break
			}
			got = append(got, string(m))
		}
		if len(parts[len(parts)-1]) > MaxMessageLen {
			want = append(want, "<too long>")
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("split %d: got %q, want %q", n, got, want)
		}
	})
}
