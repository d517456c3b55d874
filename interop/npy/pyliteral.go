package npy

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The header of a .npy file is a Python dict literal, which numpy reads
// with ast.literal_eval. This file parses the part of Python's expression
// syntax that literal_eval evaluates: strings and bytes (any quotes and
// prefixes, escapes, implicit concatenation), numbers, True, False, None,
// ..., tuples, lists, dicts, sets and set(), with unary and binary + and -
// only where literal_eval takes them (a signed number, a real number plus
// or minus an imaginary one). Whitespace, comments, line continuations and
// the indentation rules are Python's, as is numpy's dropping of a Python 2
// long suffix L after a number in format versions 1 and 2. The one form it
// refuses that Python takes is the \N{name} escape, which needs Unicode's
// table of names.

// pyKind is the type of a parsed Python value.
type pyKind uint8

const (
	pyStr pyKind = iota
	pyBytes
	pyInt
	pyFloat
	pyComplex
	pyBoolean
	pyNone
	pyEllipsis
	pyTuple
	pyList
	pyDict
	pySet
)

var pyKindNames = [...]string{"str", "bytes", "int", "float", "complex", "bool", "None", "Ellipsis", "tuple", "list", "dict", "set"}

func (k pyKind) String() string { return pyKindNames[k] }

// A pyValue is a parsed Python literal.
type pyValue struct {
	kind pyKind
	str  string // pyStr, pyBytes: the value
	n    int64  // pyInt, pyBoolean: the value, where it fits (not big)
	big  bool   // pyInt: beyond int64
	// elems are the elements of a tuple, list or set; a dict's keys and
	// values alternate.
	elems []pyValue
	src   string // the source text, for messages
}

// hashable reports whether v may be a dict key or a set element.
func (v *pyValue) hashable() bool {
	switch v.kind {
	case pyList, pyDict, pySet:
		return false
	case pyTuple:
		for i := range v.elems {
			if !v.elems[i].hashable() {
				return false
			}
		}
	}
	return true
}

// maxNesting is the deepest nesting of brackets accepted: Python's
// tokenizer refuses 200 levels.
const maxNesting = 199

// A pyParser parses one Python expression from src.
type pyParser struct {
	src     string
	pos     int
	depth   int  // of brackets open: newlines are whitespace inside them
	dropL   bool // drop a Python 2 long suffix L after a number
	errText string
	errPos  int
}

// pySyntaxError is the first error a pyParser met.
type pySyntaxError struct {
	msg string
	pos int
}

func (e *pySyntaxError) Error() string { return fmt.Sprintf("at byte %d, %s", e.pos, e.msg) }

// parsePyLiteral parses src, a Python expression as literal_eval takes
// it, dropping an L after a number where dropL is set (numpy's filter of
// headers of format versions 1 and 2).
func parsePyLiteral(src string, dropL bool) (pyValue, error) {
	p := &pyParser{src: src, dropL: dropL}
	if i := strings.IndexByte(src, 0); i >= 0 {
		return pyValue{}, &pySyntaxError{"a NUL byte", i}
	}
	v, ok := p.top()
	if !ok {
		return pyValue{}, &pySyntaxError{p.errText, p.errPos}
	}
	return v, nil
}

// fail records the first error, at the current position.
func (p *pyParser) fail(format string, a ...any) bool {
	if p.errText == "" {
		p.errText, p.errPos = fmt.Sprintf(format, a...), p.pos
	}
	return false
}

func (p *pyParser) peek() byte {
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

// newlineAt returns the length of the line break at i (\n, \r\n or \r),
// or 0.
func (p *pyParser) newlineAt(i int) int {
	switch {
	case i >= len(p.src):
		return 0
	case p.src[i] == '\n':
		return 1
	case p.src[i] == '\r' && i+1 < len(p.src) && p.src[i+1] == '\n':
		return 2
	case p.src[i] == '\r':
		return 1
	}
	return 0
}

// space skips blanks, comments and line continuations, and line breaks
// inside brackets. It fails on a backslash not followed by a line break.
func (p *pyParser) space() bool {
	for p.pos < len(p.src) {
		switch c := p.src[p.pos]; {
		case c == ' ' || c == '\t' || c == '\f':
			p.pos++
		case c == '#':
			for p.pos < len(p.src) && p.newlineAt(p.pos) == 0 {
				p.pos++
			}
		case c == '\\':
			n := p.newlineAt(p.pos + 1)
			if n == 0 {
				return p.fail("a backslash outside a string, not at the end of a line")
			}
			if p.pos+1+n == len(p.src) {
				return p.fail("a line continuation at the end")
			}
			p.pos += 1 + n
		case p.depth > 0 && (c == '\n' || c == '\r'):
			p.pos++
		default:
			return true
		}
	}
	return true
}

// top parses the whole source: leading blank and comment lines, one
// expression (a tuple where it has a comma) starting in the first column,
// then only blanks, comments and blank lines.
func (p *pyParser) top() (pyValue, bool) {
	// literal_eval strips leading spaces and tabs; the expression's line
	// must then not be indented.
	p.pos = len(p.src) - len(strings.TrimLeft(p.src, " \t"))
	for {
		col := 0
		for p.pos < len(p.src) {
			c := p.src[p.pos]
			if c == ' ' || c == '\t' {
				col++
			} else if c == '\f' {
				col = 0
			} else if c == '\\' && p.newlineAt(p.pos+1) > 0 {
				p.pos += p.newlineAt(p.pos + 1)
			} else {
				break
			}
			p.pos++
		}
		if p.peek() == '#' {
			for p.pos < len(p.src) && p.newlineAt(p.pos) == 0 {
				p.pos++
			}
		}
		if n := p.newlineAt(p.pos); n > 0 {
			p.pos += n
			continue
		}
		if p.pos == len(p.src) {
			return pyValue{}, p.fail("no expression")
		}
		if col > 0 {
			return pyValue{}, p.fail("an indented expression")
		}
		break
	}
	start := p.pos
	elems, _, comma, ok := p.elements(0)
	if !ok {
		return pyValue{}, false
	}
	if len(elems) == 0 {
		return pyValue{}, p.fail("no expression")
	}
	v := elems[0]
	if len(elems) > 1 || comma {
		v = pyValue{kind: pyTuple, elems: elems, src: p.src[start:p.pos]}
	}
	for {
		if !p.space() {
			return v, false
		}
		if p.pos == len(p.src) {
			return v, true
		}
		n := p.newlineAt(p.pos)
		if n == 0 {
			return v, p.fail("%q after the expression", p.rest())
		}
		p.pos += n
		// The lines after it may hold blanks and comments only: an
		// indented line is not a new statement there.
	}
}

// rest returns a few bytes from the current position, for messages.
func (p *pyParser) rest() string {
	r := p.src[p.pos:]
	if len(r) > 12 {
		r = r[:12] + "…"
	}
	return r
}

// elements parses expressions separated by commas, with an optional
// trailing comma, up to close (not consumed), or at the top level (close
// 0) up to the end of the line. comma reports whether there was a comma.
// kind is the operand kind of the first expression (see expr).
func (p *pyParser) elements(close byte) (elems []pyValue, kind int, comma, ok bool) {
	for {
		if !p.space() {
			return nil, 0, false, false
		}
		if c := p.peek(); close != 0 && c == close || close == 0 && (p.pos == len(p.src) || p.newlineAt(p.pos) > 0) {
			return elems, kind, comma, true
		}
		v, k, ok := p.expr()
		if !ok {
			return nil, 0, false, false
		}
		if len(elems) == 0 {
			kind = k
		}
		elems = append(elems, v)
		if !p.space() {
			return nil, 0, false, false
		}
		if p.peek() != ',' {
			return elems, kind, comma, true
		}
		p.pos++
		comma = true
	}
}

// An operand of + and -, as literal_eval sees its tree, where parentheses
// leave no trace: a constant, a signed constant, or anything else.
const (
	opConst = iota
	opSigned
	opOther
)

// isNumber reports whether v is a number, as literal_eval's arithmetic
// takes it (not a bool).
func (v *pyValue) isNumber() bool { return v.kind == pyInt || v.kind == pyFloat || v.kind == pyComplex }

// expr parses one expression: an operand, optionally followed by + or -
// and another, which literal_eval takes only as a real number plus or
// minus an imaginary one.
func (p *pyParser) expr() (pyValue, int, bool) {
	start := p.pos
	left, lk, ok := p.unary()
	if !ok {
		return left, 0, false
	}
	for {
		if !p.space() {
			return pyValue{}, 0, false
		}
		c := p.peek()
		if c != '+' && c != '-' {
			return left, lk, true
		}
		p.pos++
		right, rk, ok := p.unary()
		if !ok {
			return right, 0, false
		}
		if lk == opOther || left.kind != pyInt && left.kind != pyFloat || rk != opConst || right.kind != pyComplex {
			return pyValue{}, 0, p.fail("%q, which is not a real number plus or minus an imaginary one", p.src[start:p.pos])
		}
		left, lk = pyValue{kind: pyComplex, src: p.src[start:p.pos]}, opOther
	}
}

// unary parses an operand with an optional sign, which literal_eval takes
// before a number constant only.
func (p *pyParser) unary() (pyValue, int, bool) {
	if !p.space() {
		return pyValue{}, 0, false
	}
	start := p.pos
	c := p.peek()
	if c != '+' && c != '-' {
		return p.atom()
	}
	p.pos++
	v, k, ok := p.unary()
	if !ok {
		return v, 0, false
	}
	if k != opConst || !v.isNumber() {
		return pyValue{}, 0, p.fail("a sign before %s, which is not a number", v.src)
	}
	v.src = p.src[start:p.pos]
	if c == '-' && v.kind == pyInt && !v.big {
		v.n = -v.n
	}
	return v, opSigned, true
}

// atom parses a constant or a bracketed display.
func (p *pyParser) atom() (pyValue, int, bool) {
	start := p.pos
	c := p.peek()
	switch {
	case c == '(' || c == '[' || c == '{':
		if p.depth >= maxNesting {
			return pyValue{}, 0, p.fail("brackets nested deeper than %d", maxNesting)
		}
		p.pos++
		p.depth++
		var v pyValue
		k := opOther
		switch c {
		case '(':
			elems, first, comma, ok := p.elements(')')
			if !ok {
				return pyValue{}, 0, false
			}
			if len(elems) == 1 && !comma {
				// A parenthesized expression is the expression.
				v, k = elems[0], first
			} else {
				v = pyValue{kind: pyTuple, elems: elems}
			}
		case '[':
			elems, _, _, ok := p.elements(']')
			if !ok {
				return pyValue{}, 0, false
			}
			v = pyValue{kind: pyList, elems: elems}
		case '{':
			var ok bool
			if v, ok = p.braces(); !ok {
				return v, 0, false
			}
		}
		close := map[byte]byte{'(': ')', '[': ']', '{': '}'}[c]
		if !p.space() {
			return pyValue{}, 0, false
		}
		if p.peek() != close {
			return pyValue{}, 0, p.fail("expected %q", close)
		}
		p.pos++
		p.depth--
		v.src = p.src[start:p.pos]
		return v, k, true
	case c == '\'' || c == '"':
		v, ok := p.strings()
		return v, opConst, ok
	case c >= '0' && c <= '9' || c == '.' && p.pos+1 < len(p.src) && p.src[p.pos+1] >= '0' && p.src[p.pos+1] <= '9':
		v, ok := p.number()
		return v, opConst, ok
	case strings.HasPrefix(p.src[p.pos:], "..."):
		p.pos += 3
		return pyValue{kind: pyEllipsis, src: "..."}, opConst, true
	case isNameStart(c):
		if p.stringStart() {
			v, ok := p.strings()
			return v, opConst, ok
		}
		switch name := p.name(); name {
		case "True", "False":
			v := pyValue{kind: pyBoolean, src: name}
			if name == "True" {
				v.n = 1
			}
			return v, opConst, true
		case "None":
			return pyValue{kind: pyNone, src: name}, opConst, true
		case "set":
			// set() is literal_eval's empty set.
			p.depth++
			if p.space() && p.peek() == '(' {
				p.pos++
				if p.space() && p.peek() == ')' {
					p.pos++
					p.depth--
					return pyValue{kind: pySet, src: p.src[start:p.pos]}, opOther, true
				}
			}
			return pyValue{}, 0, p.fail("set not followed by (), the one call literal_eval takes")
		default:
			p.pos = start
			return pyValue{}, 0, p.fail("the name %q, which is not True, False or None", name)
		}
	case p.pos == len(p.src):
		return pyValue{}, 0, p.fail("the end of the header inside an expression")
	}
	r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
	return pyValue{}, 0, p.fail("unexpected %q", r)
}

// braces parses a dict or set display after its '{'.
func (p *pyParser) braces() (pyValue, bool) {
	if !p.space() {
		return pyValue{}, false
	}
	if p.peek() == '}' {
		return pyValue{kind: pyDict}, true
	}
	kind := pySet
	var elems []pyValue
	for {
		if !p.space() {
			return pyValue{}, false
		}
		if p.peek() == '}' && len(elems) > 0 {
			break
		}
		if p.peek() == '*' {
			return pyValue{}, p.fail("unpacking, which literal_eval refuses")
		}
		k, _, ok := p.expr()
		if !ok {
			return k, false
		}
		if !p.space() {
			return pyValue{}, false
		}
		if len(elems) == 0 && p.peek() == ':' {
			kind = pyDict
		}
		if !k.hashable() {
			return pyValue{}, p.fail("the %s %s as a key or set element, which must be hashable", k.kind, k.src)
		}
		elems = append(elems, k)
		if kind == pyDict {
			if p.peek() != ':' {
				return pyValue{}, p.fail("expected ':' after the key %s", k.src)
			}
			p.pos++
			v, _, ok := p.expr()
			if !ok {
				return v, false
			}
			elems = append(elems, v)
			if !p.space() {
				return pyValue{}, false
			}
		}
		if p.peek() != ',' {
			break
		}
		p.pos++
	}
	return pyValue{kind: kind, elems: elems}, true
}

func isNameStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isNameByte(c byte) bool { return isNameStart(c) || c >= '0' && c <= '9' }

// name reads an identifier.
func (p *pyParser) name() string {
	start := p.pos
	for p.pos < len(p.src) && isNameByte(p.src[p.pos]) {
		p.pos++
	}
	return p.src[start:p.pos]
}

// isStringPrefix reports whether s may prefix a string literal that
// literal_eval takes (not an f-string).
func isStringPrefix(s string) bool {
	switch strings.ToLower(s) {
	case "r", "u", "b", "br", "rb":
		return true
	}
	return false
}

// stringStart reports whether a string literal starts at the current
// position: a quote, or a prefix that literal_eval takes and a quote.
func (p *pyParser) stringStart() bool {
	i := p.pos
	for i < len(p.src) && i-p.pos < 3 && isNameByte(p.src[i]) {
		i++
	}
	return i < len(p.src) && (p.src[i] == '\'' || p.src[i] == '"') && (i == p.pos || isStringPrefix(p.src[p.pos:i]))
}

// strings parses one or more adjacent string literals, which Python
// concatenates; str and bytes do not mix.
func (p *pyParser) strings() (pyValue, bool) {
	start := p.pos
	var b strings.Builder
	kind := pyStr
	for n := 0; ; n++ {
		prefix := strings.ToLower(p.name())
		k := pyStr
		if strings.Contains(prefix, "b") {
			k = pyBytes
		}
		if n > 0 && k != kind {
			return pyValue{}, p.fail("str and bytes literals side by side")
		}
		kind = k
		if !p.stringBody(&b, strings.Contains(prefix, "r"), k == pyBytes) {
			return pyValue{}, false
		}
		end := p.pos
		if !p.space() || !p.stringStart() {
			p.pos, p.errText = end, ""
			break
		}
	}
	return pyValue{kind: kind, str: b.String(), src: p.src[start:p.pos]}, true
}

// stringBody reads a quoted literal from its opening quote, appending its
// value to b.
func (p *pyParser) stringBody(b *strings.Builder, raw, bytesLit bool) bool {
	q := p.src[p.pos]
	triple := strings.HasPrefix(p.src[p.pos:], strings.Repeat(string(q), 3))
	if triple {
		p.pos += 3
	} else {
		p.pos++
	}
	for {
		if p.pos >= len(p.src) {
			return p.fail("a string without its closing quote")
		}
		c := p.src[p.pos]
		switch {
		case c == q && (!triple || strings.HasPrefix(p.src[p.pos:], strings.Repeat(string(q), 3))):
			if triple {
				p.pos += 3
			} else {
				p.pos++
			}
			return true
		case !triple && (c == '\n' || c == '\r'):
			return p.fail("a line break in a string")
		case c >= 0x80 && bytesLit:
			return p.fail("a non-ASCII character in a bytes literal")
		case c == '\\':
			if p.pos+1 >= len(p.src) {
				return p.fail("a string without its closing quote")
			}
			if raw {
				// The backslash stays, and keeps the next character
				// from closing the string.
				b.WriteByte('\\')
				p.pos++
				n := max(1, p.newlineAt(p.pos))
				b.WriteString(p.src[p.pos : p.pos+n])
				p.pos += n
				continue
			}
			if !p.escape(b, bytesLit) {
				return false
			}
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
}

// escape reads an escape sequence from its backslash.
func (p *pyParser) escape(b *strings.Builder, bytesLit bool) bool {
	p.pos++ // the backslash
	if n := p.newlineAt(p.pos); n > 0 {
		p.pos += n
		return true
	}
	c := p.src[p.pos]
	p.pos++
	if i := strings.IndexByte(`\'"abfnrtv`, c); i >= 0 {
		b.WriteByte("\\'\"\a\b\f\n\r\t\v"[i])
		return true
	}
	put := func(r rune) {
		if bytesLit {
			b.WriteByte(byte(r))
		} else {
			b.WriteRune(r)
		}
	}
	hex := func(n int) bool {
		if p.pos+n > len(p.src) {
			return p.fail("a truncated \\%c escape", c)
		}
		r, err := strconv.ParseUint(p.src[p.pos:p.pos+n], 16, 32)
		if err != nil || strings.ContainsAny(p.src[p.pos:p.pos+n], "+-_xX") {
			return p.fail("a malformed \\%c escape", c)
		}
		if r > utf8.MaxRune {
			return p.fail("an escape beyond Unicode")
		}
		p.pos += n
		put(rune(r))
		return true
	}
	switch {
	case c >= '0' && c <= '7':
		r := rune(c - '0')
		for k := 0; k < 2 && p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '7'; k++ {
			r = 8*r + rune(p.src[p.pos]-'0')
			p.pos++
		}
		if bytesLit {
			r &= 0xff
		}
		put(r)
		return true
	case c == 'x':
		return hex(2)
	case c == 'u' && !bytesLit:
		return hex(4)
	case c == 'U' && !bytesLit:
		return hex(8)
	case c == 'N' && !bytesLit:
		return p.fail("a \\N{name} escape, which this reader does not know")
	}
	// An unknown escape keeps its backslash.
	b.WriteByte('\\')
	p.pos--
	return true
}

// number parses a number literal: an int in any base, a float or an
// imaginary number, with Python's rules for underscores and leading zeros.
func (p *pyParser) number() (pyValue, bool) {
	start := p.pos
	s := p.src
	digits := func(ok func(byte) bool) bool {
		// digit (["_"] digit)*
		if p.pos >= len(s) || !ok(s[p.pos]) {
			return false
		}
		p.pos++
		for p.pos < len(s) {
			if ok(s[p.pos]) {
				p.pos++
			} else if s[p.pos] == '_' && p.pos+1 < len(s) && ok(s[p.pos+1]) {
				p.pos += 2
			} else {
				break
			}
		}
		return true
	}
	dec := func(c byte) bool { return c >= '0' && c <= '9' }
	v := pyValue{kind: pyInt}
	if s[p.pos] == '0' && p.pos+1 < len(s) && strings.IndexByte("xXoObB", s[p.pos+1]) >= 0 {
		base, ok := 16, func(c byte) bool { return dec(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
		switch s[p.pos+1] {
		case 'o', 'O':
			base, ok = 8, func(c byte) bool { return c >= '0' && c <= '7' }
		case 'b', 'B':
			base, ok = 2, func(c byte) bool { return c == '0' || c == '1' }
		}
		p.pos += 2
		if p.pos < len(s) && s[p.pos] == '_' {
			p.pos++
		}
		if !digits(ok) {
			return v, p.fail("a malformed number %q", s[start:p.pos])
		}
		v.n, v.big = parseInt(s[start+2:p.pos], base)
	} else {
		intEnd := -1
		if dec(s[p.pos]) {
			digits(dec)
			intEnd = p.pos
		}
		isFloat := false
		if p.peek() == '.' {
			p.pos++
			isFloat = true
			if p.pos < len(s) && dec(s[p.pos]) {
				digits(dec)
			}
		}
		if c := p.peek(); c == 'e' || c == 'E' {
			p.pos++
			if c := p.peek(); c == '+' || c == '-' {
				p.pos++
			}
			if !digits(dec) {
				return v, p.fail("a malformed number %q", s[start:p.pos])
			}
			isFloat = true
		}
		switch {
		case p.peek() == 'j' || p.peek() == 'J':
			p.pos++
			v.kind = pyComplex
		case isFloat:
			v.kind = pyFloat
		default:
			lit := strings.ReplaceAll(s[start:intEnd], "_", "")
			if lit[0] == '0' && strings.Trim(lit, "0") != "" {
				return v, p.fail("a decimal number %q with a leading zero", s[start:intEnd])
			}
			v.n, v.big = parseInt(lit, 10)
		}
	}
	end := p.pos
	if p.dropL {
		// numpy's filter of the headers of versions 1 and 2 drops a name
		// L after a number (a Python 2 long).
		for p.pos < len(s) {
			if c := s[p.pos]; c == ' ' || c == '\t' || c == '\f' {
				p.pos++
			} else if n := p.newlineAt(p.pos + 1); c == '\\' && n > 0 {
				p.pos += 1 + n
			} else {
				break
			}
		}
		if p.name() != "L" {
			p.pos = end
		}
	}
	if p.pos == end && p.pos < len(s) && (isNameByte(s[p.pos]) || s[p.pos] == '.') {
		return v, p.fail("a malformed number %q", s[start:p.pos+1])
	}
	v.src = s[start:end]
	return v, true
}

// parseInt parses digits (without underscores' meaning) in base, and
// reports whether the value is beyond int64.
func parseInt(digits string, base int) (int64, bool) {
	var n uint64
	for _, c := range strings.ReplaceAll(digits, "_", "") {
		d := uint64(c - '0')
		switch {
		case c >= 'a':
			d = uint64(c-'a') + 10
		case c >= 'A':
			d = uint64(c-'A') + 10
		}
		if n > (math.MaxInt64-d)/uint64(base) {
			return 0, true
		}
		n = n*uint64(base) + d
	}
	return int64(n), false
}
