// line.go: the Hub line syntax (docs/hub.md "Line syntax"): reading a
// line into a command and its arguments, and writing one back.

package hubwire

import (
	"fmt"
	"strings"
)

// MaxLineBytes bounds one Hub line as either side reads it, in bytes (its
// line ending included): damka's engine answers a longer input line with
// error message="line too long ...", and the client fails the wait for a
// longer answer or skips a longer line of another kind.
const MaxLineBytes = 1 << 20

// Arg is one argument of a Hub line: name=value, or a bare flag (Flag true,
// Value empty) such as the "think" of "go think".
type Arg struct {
	Name  string
	Value string
	Flag  bool // written without "=" (a bare name)
	// Quoted: the value was read from, or is always written in, double
	// quotes (String quotes a value that is not a token in any case).
	Quoted bool
}

// Line is one Hub message: a command and its arguments in line order.
type Line struct {
	Command string
	Args    []Arg
}

// SyntaxError is the error ParseLine returns for a line that breaks the Hub
// line syntax. Column is the 1-based byte offset of the offending character
// (len(line)+1 for a problem at the end of the line).
type SyntaxError struct {
	Column int
	Reason string
}

// Error returns "column N: reason".
func (e *SyntaxError) Error() string { return fmt.Sprintf("column %d: %s", e.Column, e.Reason) }

// ErrEmptyLine is returned by ParseLine for a line with no command (empty or
// white space only). Engines answer it with error message="missing command".
var ErrEmptyLine = fmt.Errorf("missing command")

// isSpace reports whether c separates tokens: space, tab, CR, LF, VT, FF.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'
}

// isControl reports whether c is an ASCII control character (DEL included).
func isControl(c byte) bool { return c < 0x20 || c == 0x7f }

// isTokenByte reports whether c may appear in a token: not a control
// character, not white space, not '=' and not '"'. Bytes of UTF-8 sequences
// (0x80 and up) are token bytes.
func isTokenByte(c byte) bool { return !isControl(c) && c != ' ' && c != '=' && c != '"' }

// IsToken reports whether s is a non-empty Hub token, i.e. a value that can
// be written without quotes.
func IsToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isTokenByte(s[i]) {
			return false
		}
	}
	return true
}

// ParseLine reads one Hub line (without or with its line ending).
//
// Rules (docs/hub.md): the first token is the command; each further
// item is a bare name (a flag, value "") or name=value with no white space
// around "="; a value is a token or a double-quoted string, which may be
// empty and may hold spaces and "=" but not '"' (there is no escape) nor
// control characters other than tab. A token of two apostrophes is the
// empty value too: error messages, whose text cannot hold '"', write the
// empty value so. A token is a run of bytes that are not control
// characters, white space, "=" or '"'. White space, CR included,
// separates items, so CRLF lines parse like LF lines.
//
// Errors: ErrEmptyLine for a line without a command; otherwise a
// *SyntaxError giving the column and what was wrong (a quoted command or
// name, "=" without a name or without a value, a missing closing quote, a
// control character, no white space after an item).
func ParseLine(s string) (Line, error) {
	var l Line
	i := 0
	fail := func(at int, format string, a ...any) (Line, error) {
		return Line{}, &SyntaxError{Column: at + 1, Reason: fmt.Sprintf(format, a...)}
	}
	// token reads a bare token at i; it returns "" when none starts there.
	token := func() string {
		j := i
		for i < len(s) && isTokenByte(s[i]) {
			i++
		}
		return s[j:i]
	}
	// unexpected explains the byte at i, which cannot start or continue an
	// item where it stands.
	unexpected := func(where string) (Line, error) {
		switch c := s[i]; {
		case c == '"':
			return fail(i, "unexpected '\"' %s (only a value, after name=, may be quoted)", where)
		case c == '=':
			return fail(i, "unexpected '=' %s", where)
		case isTokenByte(c):
			return fail(i, "missing white space %s", where)
		default:
			return fail(i, "control character 0x%02x %s", c, where)
		}
	}
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	if i == len(s) {
		return Line{}, ErrEmptyLine
	}
	if l.Command = token(); l.Command == "" {
		return unexpected("where the command should start")
	}
	where := fmt.Sprintf("after the command %q", l.Command)
	for {
		if i < len(s) && !isSpace(s[i]) {
			return unexpected(where)
		}
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i == len(s) {
			return l, nil
		}
		start := i
		name := token()
		if name == "" {
			return unexpected("where an argument name should start")
		}
		where = fmt.Sprintf("after the argument %q", name)
		if i == len(s) || s[i] != '=' {
			l.Args = append(l.Args, Arg{Name: name, Flag: true})
			continue
		}
		i++ // '='
		switch {
		case i == len(s) || isSpace(s[i]):
			return fail(i, "argument %q has '=' but no value (an empty value is written %s='')", name, name)
		case s[i] == '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if c := s[j]; isControl(c) && c != '\t' {
					if c != '\r' && c != '\n' {
						return fail(j, "control character 0x%02x in the quoted value of %q", c, name)
					}
					break
				}
				j++
			}
			if j == len(s) || s[j] != '"' {
				return fail(start, "missing closing quote in the value of %q", name)
			}
			l.Args = append(l.Args, Arg{Name: name, Value: s[i+1 : j], Quoted: true})
			i = j + 1
		default:
			v := token()
			if v == "" {
				return unexpected(fmt.Sprintf("after %s=", name))
			}
			if v == "''" { // the empty value, as error messages write it
				l.Args = append(l.Args, Arg{Name: name, Quoted: true})
				continue
			}
			l.Args = append(l.Args, Arg{Name: name, Value: v})
		}
	}
}

// Get returns the value of the last argument called name and whether it is
// present (a flag is present with value "").
func (l Line) Get(name string) (string, bool) {
	for i := len(l.Args) - 1; i >= 0; i-- {
		if l.Args[i].Name == name {
			return l.Args[i].Value, true
		}
	}
	return "", false
}

// Has reports whether the line has an argument or flag called name.
func (l Line) Has(name string) bool {
	_, ok := l.Get(name)
	return ok
}

// NewLine returns a line with the given command and no arguments.
func NewLine(command string) Line { return Line{Command: command} }

// With returns l with name=value appended.
func (l Line) With(name, value string) Line {
	l.Args = append(l.Args[:len(l.Args):len(l.Args)], Arg{Name: name, Value: value})
	return l
}

// WithQuoted returns l with name="value" appended, quoted even when value
// is a token (the pv of an info line).
func (l Line) WithQuoted(name, value string) Line {
	l.Args = append(l.Args[:len(l.Args):len(l.Args)], Arg{Name: name, Value: value, Quoted: true})
	return l
}

// WithFlag returns l with the bare flag name appended.
func (l Line) WithFlag(name string) Line {
	l.Args = append(l.Args[:len(l.Args):len(l.Args)], Arg{Name: name, Flag: true})
	return l
}

// String writes l as a Hub line without line ending: values are left bare
// when they are tokens and double-quoted otherwise. A '"' or a control
// character, which no Hub value can hold, is written as "'" or "?" instead,
// so the output always parses back (to the adjusted value).
func (l Line) String() string {
	var b strings.Builder
	b.WriteString(l.Command)
	for _, a := range l.Args {
		b.WriteByte(' ')
		b.WriteString(a.Name)
		if a.Flag {
			continue
		}
		b.WriteByte('=')
		writeValue(&b, a.Value, a.Quoted)
	}
	return b.String()
}

// writeValue writes v bare when it is a token other than two apostrophes
// (and quote is false), else in double quotes, replacing the characters no
// value can hold.
func writeValue(b *strings.Builder, v string, quote bool) {
	if !quote && IsToken(v) && v != "''" {
		b.WriteString(v)
		return
	}
	b.WriteByte('"')
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '"':
			b.WriteByte('\'')
		case isControl(c) && c != '\t':
			b.WriteByte('?')
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
}
