package logjson

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestKeysProblem(t *testing.T) {
	assert.Empty(t, KeysProblem(`{"a":1,"b":{"a":[1,{"a":2}]},"c":"x"}`))
	assert.Contains(t, KeysProblem(`{"time":"x","n":1,"time":2}`), `duplicate key "time"`)
	assert.Contains(t, KeysProblem(`{"a":{"b":1,"b":2}}`), `duplicate key "b"`)
	assert.Contains(t, KeysProblem(`{"a":1`), "not JSON")
	assert.Contains(t, KeysProblem(`{"a":1}{"b":2}`), "want one JSON object")
}
