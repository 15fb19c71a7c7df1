package hubwire

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseLine(t *testing.T) {
	cases := []struct {
		in   string
		want Line
	}{
		{"hub", Line{Command: "hub"}},
		{"  go   think  ", Line{Command: "go", Args: []Arg{{Name: "think", Flag: true}}}},
		{"go think\r", Line{Command: "go", Args: []Arg{{Name: "think", Flag: true}}}},
		{"go think\r\n", Line{Command: "go", Args: []Arg{{Name: "think", Flag: true}}}},
		{"\tlevel\tdepth=5\tnodes=100", Line{Command: "level", Args: []Arg{{Name: "depth", Value: "5"}, {Name: "nodes", Value: "100"}}}},
		{`pos pos=Wbbb moves="32-28 19-23"`, Line{Command: "pos", Args: []Arg{
			{Name: "pos", Value: "Wbbb"}, {Name: "moves", Value: "32-28 19-23", Quoted: true}}}},
		{`set-param name=x value=""`, Line{Command: "set-param", Args: []Arg{
			{Name: "name", Value: "x"}, {Name: "value", Value: "", Quoted: true}}}},
		{`set-param name=x value=''`, Line{Command: "set-param", Args: []Arg{
			{Name: "name", Value: "x"}, {Name: "value", Value: "", Quoted: true}}}},
		{`a b="x=y z" c`, Line{Command: "a", Args: []Arg{{Name: "b", Value: "x=y z", Quoted: true}, {Name: "c", Flag: true}}}},
		{"a b=\"tab\there\"", Line{Command: "a", Args: []Arg{{Name: "b", Value: "tab\there", Quoted: true}}}},
		{"id name=Scan version=3.1 country=Fran\u00e7e", Line{Command: "id", Args: []Arg{
			{Name: "name", Value: "Scan"}, {Name: "version", Value: "3.1"}, {Name: "country", Value: "Fran\u00e7e"}}}},
		{"x a=1 a=2", Line{Command: "x", Args: []Arg{{Name: "a", Value: "1"}, {Name: "a", Value: "2"}}}},
		{"PING", Line{Command: "PING"}},
		{"info pv=\"\"\r", Line{Command: "info", Args: []Arg{{Name: "pv", Quoted: true}}}},
	}
	for _, c := range cases {
		got, err := ParseLine(c.in)
		if assert.NoError(t, err, "%q", c.in) {
			assert.Equal(t, c.want, got, "%q", c.in)
		}
	}
}

func TestParseLineErrors(t *testing.T) {
	cases := []struct {
		in     string
		column int
		reason string
	}{
		{`"go" think`, 1, "unexpected '\"' where the command should start"},
		{`=x`, 1, "unexpected '=' where the command should start"},
		{"\x00hub", 1, "control character 0x00"},
		{`go=1`, 3, "unexpected '=' after the command"},
		{`go"x"`, 3, `unexpected '"' after the command`},
		{`pos "abc"`, 5, "unexpected '\"' where an argument name should start"},
		{`pos =abc`, 5, "unexpected '=' where an argument name should start"},
		{`pos pos=`, 9, `argument "pos" has '=' but no value`},
		{`pos pos= x`, 9, `argument "pos" has '=' but no value`},
		{`pos moves="32-28 19-23`, 5, `missing closing quote in the value of "moves"`},
		{"pos moves=\"32-28\r", 5, `missing closing quote`},
		{`pos moves="a"b`, 14, `missing white space after the argument "moves"`},
		{`level depth==3`, 13, `unexpected '=' after depth=`},
		{`level depth=3=4`, 14, `unexpected '=' after the argument "depth"`},
		{`level depth=3"`, 14, `unexpected '"' after the argument "depth"`},
		{"level depth=\x013", 13, "control character 0x01 after depth="},
		{"level depth=3\x7f", 14, "control character 0x7f"},
		{"a b=\"x\x01y\"", 7, `control character 0x01 in the quoted value of "b"`},
	}
	for _, c := range cases {
		_, err := ParseLine(c.in)
		var se *SyntaxError
		if assert.True(t, errors.As(err, &se), "%q: %v", c.in, err) {
			assert.Equal(t, c.column, se.Column, "%q: %v", c.in, err)
			assert.Contains(t, se.Error(), c.reason, "%q", c.in)
		}
	}
	for _, empty := range []string{"", " ", "\r", "\r\n", "\t \t"} {
		_, err := ParseLine(empty)
		assert.ErrorIs(t, err, ErrEmptyLine, "%q", empty)
	}
}

func TestLineString(t *testing.T) {
	l := NewLine("info").With("depth", "3").With("score", "-0.25").WithQuoted("pv", "32-28").
		With("empty", "").With("sp", "a b").With("eq", "a=b").WithFlag("flag")
	assert.Equal(t, `info depth=3 score=-0.25 pv="32-28" empty="" sp="a b" eq="a=b" flag`, l.String())
	back, err := ParseLine(l.String())
	require.NoError(t, err)
	assert.Equal(t, l.String(), back.String())
	assert.Equal(t, "a b", back.Args[4].Value)

	// Characters no value can hold are replaced, and the line still parses.
	bad := NewLine("error").With("message", "move \"11-16\": bad\x00\nline")
	assert.Equal(t, `error message="move '11-16': bad??line"`, bad.String())
	back, err = ParseLine(bad.String())
	require.NoError(t, err)
	assert.Equal(t, "move '11-16': bad??line", back.Args[0].Value)

	// A value of two single quotes is quoted, since bare it reads as "".
	sq := NewLine("x").With("a", "''")
	assert.Equal(t, `x a="''"`, sq.String())
	back, err = ParseLine(sq.String())
	require.NoError(t, err)
	assert.Equal(t, "''", back.Args[0].Value)

	// With does not share the argument array between lines.
	base := NewLine("x").With("a", "1")
	l1, l2 := base.With("b", "2"), base.With("c", "3")
	assert.Equal(t, "x a=1 b=2", l1.String())
	assert.Equal(t, "x a=1 c=3", l2.String())
}

func TestIsToken(t *testing.T) {
	for _, s := range []string{"a", "32-28", "W" + strings.Repeat("e", 32), "1.5", "\u00e9t\u00e9"} {
		assert.True(t, IsToken(s), "%q", s)
	}
	for _, s := range []string{"", "a b", "a=b", `a"`, "a\tb", "a\x7f"} {
		assert.False(t, IsToken(s), "%q", s)
	}
}

func TestGet(t *testing.T) {
	l, err := ParseLine("pos start pos=x pos=y")
	require.NoError(t, err)
	v, ok := l.Get("pos")
	assert.True(t, ok)
	assert.Equal(t, "y", v)
	assert.True(t, l.Has("start"))
	assert.False(t, l.Has("moves"))
}

// FuzzParseLine: ParseLine never panics; a line it accepts is written back
// by String into a line that parses to the same command and arguments.
func FuzzParseLine(f *testing.F) {
	for _, s := range []string{"hub", "go think", `pos pos=Wbbb moves="1-2 3x4x5"`, `a b=""`, "a b=''", "a \"b", "x=y", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ParseLine(s)
		if err != nil {
			return
		}
		back, err := ParseLine(l.String())
		require.NoError(t, err, "%q -> %q", s, l.String())
		require.Equal(t, l.Command, back.Command)
		require.Equal(t, len(l.Args), len(back.Args))
		for i := range l.Args {
			require.Equal(t, l.Args[i].Name, back.Args[i].Name)
			require.Equal(t, l.Args[i].Value, back.Args[i].Value)
			require.Equal(t, l.Args[i].Flag, back.Args[i].Flag)
		}
	})
}
