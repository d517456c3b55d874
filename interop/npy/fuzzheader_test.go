package npy

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// FuzzHeader checks the header parser two ways. Arbitrary bytes, as the
// header of files of versions 1 and 3, give an error or a header that
// reads back the same from numpy's form (Header.String), and never a
// panic. And the bytes drive a model of the headers numpy accepts (keys
// in any order and repeated, quotes, prefixes and concatenated strings,
// numbers in any base, spacing, comments, line continuations, trailing
// commas, dtype names): the parser accepts each and returns the model's
// dtype, order and shape.
func FuzzHeader(f *testing.F) {
	for _, c := range headerCases {
		if len(c.header) < 400 {
			f.Add([]byte(c.header))
		}
	}
	f.Add([]byte{})
	f.Add(bytes.Repeat([]byte{0xff}, 64))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, version := range []byte{1, 3} {
			h, _, _, err := readHeader(bytes.NewReader(headerFile(version, string(b))))
			if err != nil {
				if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrDtype) && !errors.Is(err, ErrRank) {
					t.Fatalf("error of no kind: %v", err)
				}
				continue
			}
			again, _, _, err := readHeader(bytes.NewReader(headerFile(1, h.String())))
			if err != nil || again.Descr != h.Descr || again.FortranOrder != h.FortranOrder || !slices.Equal(again.Shape, h.Shape) {
				t.Fatalf("%q read as %v; its numpy form %q as %v, %v", b, h, h.String(), again, err)
			}
		}

		g := &headerGen{b: b}
		text, version, want := g.header()
		h, _, _, err := readHeader(bytes.NewReader(headerFile(version, text)))
		if len(want.Shape) > 8 {
			if !errors.Is(err, ErrRank) {
				t.Fatalf("version %d, %q: rank %d, error %v", version, text, len(want.Shape), err)
			}
			return
		}
		if err != nil || h.Descr != want.Descr || h.FortranOrder != want.FortranOrder || !slices.Equal(h.Shape, want.Shape) {
			t.Fatalf("version %d, %q: read %v, %v; want %v", version, text, h, err, want)
		}
	})
}

// A headerGen makes headers that numpy accepts, choosing with its bytes
// (zeros once they run out).
type headerGen struct {
	b       []byte
	version byte
}

// n returns a choice in [0, k).
func (g *headerGen) n(k int) int {
	if len(g.b) == 0 {
		return 0
	}
	c := g.b[0]
	g.b = g.b[1:]
	return int(c) % k
}

func (g *headerGen) pick(s ...string) string { return s[g.n(len(s))] }

// modelDtypes are spellings of dtypes, with their descr on a
// little-endian machine ('=' for the machine's order).
var modelDtypes = [][2]string{
	{"<f8", "<f8"}, {">f8", ">f8"}, {"=f8", "=f8"}, {"|f8", "=f8"}, {"f8", "=f8"}, {"float64", "=f8"}, {"d", "=f8"}, {"double", "=f8"},
	{"<f4", "<f4"}, {"float32", "=f4"}, {"f", "=f4"}, {">f4", ">f4"},
	{"|b1", "|b1"}, {"?", "|b1"}, {"bool", "|b1"}, {"b1", "|b1"},
	{"|i1", "|i1"}, {"b", "|i1"}, {"int8", "|i1"}, {"|u1", "|u1"}, {"B", "|u1"}, {"uint8", "|u1"},
	{"<i2", "<i2"}, {">i2", ">i2"}, {"h", "=i2"}, {"<u2", "<u2"}, {"H", "=u2"},
	{"<i4", "<i4"}, {"i", "=i4"}, {"int32", "=i4"}, {">u4", ">u4"}, {"I", "=u4"},
	{"<i8", "<i8"}, {"q", "=i8"}, {"int64", "=i8"}, {"<u8", "<u8"}, {"Q", "=u8"}, {"uint64", "=u8"},
	{"<c8", "<c8"}, {"F", "=c8"}, {"complex64", "=c8"}, {">c16", ">c16"}, {"D", "=c16"}, {"complex128", "=c16"}, {"complex", "=c16"},
}

// header returns a header, its format version and what it says.
func (g *headerGen) header() (string, byte, Header) {
	g.version = byte(1 + g.n(3))
	spell := modelDtypes[g.n(len(modelDtypes))]
	want := Header{Descr: spell[1], FortranOrder: g.n(2) == 1, Shape: make([]int, g.n(10))}
	if want.Descr[0] == '=' {
		want.Descr = "<" + want.Descr[1:]
		if !nativeLittle {
			want.Descr = ">" + want.Descr[1:]
		}
	}
	for i := range want.Shape {
		want.Shape[i] = g.n(5)
	}
	values := map[string]string{
		"descr":         g.str(spell[0]),
		"fortran_order": g.paren(pyBool(want.FortranOrder)),
		"shape":         g.shape(want.Shape),
	}
	keys := []string{"descr", "fortran_order", "shape"}
	for i := len(keys) - 1; i > 0; i-- {
		j := g.n(i + 1)
		keys[i], keys[j] = keys[j], keys[i]
	}
	var b strings.Builder
	b.WriteString(g.pick("", "", " ", "\t", "\n", "# a comment\n", "\\\n"))
	b.WriteString("{" + g.sep())
	for i, k := range keys {
		if g.n(4) == 0 {
			// An earlier value of a repeated key does not count.
			b.WriteString(g.str(k) + g.sep() + ":" + g.sep() + g.pick("[8]", "0", "'x'", "None", "(1, 2)", "1.5", "{1: 2}", "set()", "-1+2j", "...") + g.sep() + "," + g.sep())
		}
		b.WriteString(g.str(k) + g.sep() + ":" + g.sep() + values[k] + g.sep())
		if i < len(keys)-1 || g.n(2) == 0 {
			b.WriteString("," + g.sep())
		}
	}
	b.WriteString("}" + g.pick("", "\n", "  \n", "   ", " # end\n", "\n\n\t\n"))
	return b.String(), g.version, want
}

// sep returns what may stand between two tokens inside braces.
func (g *headerGen) sep() string {
	return g.pick("", "", " ", " ", "  ", "\t", "\n", "\r\n", "\n    ", " # note\n", " \\\n", "\f")
}

// paren returns s, at times in parentheses.
func (g *headerGen) paren(s string) string {
	if g.n(6) == 0 {
		return "(" + g.sep() + s + g.sep() + ")"
	}
	return s
}

// str returns a string literal of s, at times split in concatenated
// pieces.
func (g *headerGen) str(s string) string {
	if len(s) > 1 && g.n(5) == 0 {
		i := 1 + g.n(len(s)-1)
		return g.paren(g.literal(s[:i]) + g.pick(" ", "", "\n", " # part\n") + g.literal(s[i:]))
	}
	return g.paren(g.literal(s))
}

// literal returns a string literal of s: quotes, prefixes, escapes.
func (g *headerGen) literal(s string) string {
	q := g.pick("'", "'", "\"", "'''", `"""`)
	prefix := g.pick("", "", "", "u", "r", "R", "U")
	body := s
	if g.n(4) == 0 && !strings.ContainsAny(prefix, "rR") {
		var e strings.Builder
		for _, c := range []byte(s) {
			switch g.n(4) {
			case 0:
				fmt.Fprintf(&e, "\\x%02x", c)
			case 1:
				fmt.Fprintf(&e, "\\%03o", c)
			case 2:
				fmt.Fprintf(&e, "\\u%04x", c)
			default:
				e.WriteByte(c)
			}
		}
		body = e.String()
	}
	return prefix + q + body + q
}

// shape returns a tuple literal of extents, each in a base numpy reads.
func (g *headerGen) shape(ext []int) string {
	var b strings.Builder
	b.WriteString("(" + g.sep())
	for i, e := range ext {
		if i > 0 {
			b.WriteString(g.sep() + "," + g.sep())
		}
		b.WriteString(g.int(e))
	}
	if len(ext) == 1 || len(ext) > 0 && g.n(2) == 0 {
		b.WriteString(g.sep() + ",")
	}
	b.WriteString(g.sep() + ")")
	return g.paren(b.String())
}

// int returns a literal of e.
func (g *headerGen) int(e int) string {
	var s string
	switch g.n(7) {
	case 0:
		s = fmt.Sprintf("0x%X", e)
	case 1:
		s = fmt.Sprintf("0o%o", e)
	case 2:
		s = fmt.Sprintf("0b%b", e)
	case 3:
		s = fmt.Sprint(e)
		if e == 0 {
			s = "0_0"
		}
	case 4:
		s = fmt.Sprintf("+%d", e)
	default:
		s = fmt.Sprint(e)
	}
	if g.version < 3 && g.n(4) == 0 && s[0] != '+' {
		s += g.pick("L", " L")
	}
	return g.paren(s)
}
