// Package logjson checks damka's JSON log lines in tests: every line one
// JSON object without a repeated key. It is a test helper (imported only by
// _test files), outside the layers of internal/layers.
package logjson

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
)

// KeysProblem returns why line is not one JSON object with unique keys at
// every level ("" when it is): a JSON reader keeps only one of two equal
// keys, so a log line that repeats one (a field named like zerolog's
// "time" stamp) silently loses data.
func KeysProblem(line string) string {
	dec := json.NewDecoder(strings.NewReader(line))
	type frame struct {
		obj     bool
		keys    map[string]bool
		wantKey bool
	}
	var stack []*frame
	objects := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "not JSON: " + err.Error()
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.obj && top.wantKey {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				if len(stack) > 0 && stack[len(stack)-1].obj {
					stack[len(stack)-1].wantKey = true
				}
				continue
			}
			k := tok.(string)
			if top.keys[k] {
				return fmt.Sprintf("duplicate key %q", k)
			}
			top.keys[k] = true
			top.wantKey = false
			continue
		}
		switch d, _ := tok.(json.Delim); d {
		case '{':
			if len(stack) == 0 {
				objects++
			}
			stack = append(stack, &frame{obj: true, keys: map[string]bool{}, wantKey: true})
			continue
		case '[':
			stack = append(stack, &frame{})
			continue
		case ']':
			stack = stack[:len(stack)-1]
		}
		// A value ended: the enclosing object wants its next key.
		if len(stack) > 0 && stack[len(stack)-1].obj {
			stack[len(stack)-1].wantKey = true
		}
	}
	if len(stack) != 0 {
		return "not JSON: the line ends inside an object or array"
	}
	if objects != 1 {
		return fmt.Sprintf("want one JSON object, got %d", objects)
	}
	return ""
}

// Buffer collects log output; it is safe for concurrent writes (a
// logger shared by goroutines).
type Buffer struct {
	mu sync.Mutex
	b  strings.Builder
}

// Write appends p to the buffer; it never fails.
func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns everything written so far.
func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
