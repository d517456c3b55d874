package arrow

import (
	"fmt"
	"reflect"
)

// An Option changes how Arrow memory becomes a view or a dal.Array. A nil
// Option is ignored. An option that the call cannot apply, or options that
// conflict, make the call return an error wrapping ErrOption (and so
// kokkos.ErrOption), as kokkos's options do.
type Option func(*config)

type config struct {
	label    string
	writable bool
	fill     any // nil: refuse nulls
	// given records the options given, to tell a repeated option from a
	// default; err is the first conflict, which the conversions return.
	given optionSet
	err   error
}

// optionSet records which options were given.
type optionSet uint8

const (
	givenLabel optionSet = 1 << iota
	givenWritable
	givenFill
)

// conflict records the first conflict between options.
func (c *config) conflict(format string, a ...any) {
	if c.err == nil {
		c.err = errorf(ErrOption, format, a...)
	}
}

// DefaultLabel labels the views made from Arrow memory without WithLabel.
const DefaultLabel = "arrow"

// makeConfig applies opts over the defaults; it returns the first conflict
// between them, as an error of op for element type typ.
func makeConfig(op, typ string, opts []Option) (config, error) {
	c := config{label: DefaultLabel}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if c.given&givenWritable != 0 && c.given&givenFill != 0 {
		c.conflict("options Writable and FillNulls conflict: Writable shares the Arrow memory to write through it, FillNulls asks for a copy wherever there are nulls, whose writes would not reach Arrow; drop Writable (a filled copy is writable anyway) or FillNulls")
	}
	if c.err != nil {
		return c, fmt.Errorf("arrow: %s[%s]: %w", op, typ, c.err)
	}
	return c, nil
}

// WithLabel labels the allocation of the view or dal.Array made from Arrow
// memory (DefaultLabel otherwise): panics and errors about the view name
// the label. Two WithLabel options naming different labels conflict.
func WithLabel(label string) Option {
	return func(c *config) {
		if c.given&givenLabel != 0 && c.label != label {
			c.conflict("options WithLabel(%q) and WithLabel(%q) conflict: give one label", c.label, label)
			return
		}
		c.label, c.given = label, c.given|givenLabel
	}
}

// Writable makes the view writable, or the dal.Array mutable, over the
// Arrow memory itself: a write through it changes what every Arrow array
// sharing that buffer reads. Arrow arrays are meant to be immutable once
// built, so use it only on memory no one else reads meanwhile. A buffer
// that is not mutable (memory.Buffer.Mutable, such as one wrapping bytes
// that Arrow did not allocate, or a mapped file) is refused with an error
// wrapping kokkos.ErrReadOnly. Writable conflicts with FillNulls, whose
// copy would not write through to the Arrow memory.
func Writable() Option {
	return func(c *config) { c.writable, c.given = true, c.given|givenWritable }
}

// FillNulls accepts Arrow data with nulls: the result is then a new
// host view or array, owned by the caller and writable, holding a copy of
// the values with x in each null slot (for a fixed-size list, in each
// element of a null list and each null element). Without nulls the
// result shares the Arrow memory as usual. x must have the element type
// asked for, or the conversion returns an error wrapping ErrType and
// ErrOption. It cannot apply to a buffer (BufferToView1, BufferToArray),
// which has no nulls, and conflicts with Writable and with another
// FillNulls of a different value: those are errors wrapping ErrOption.
func FillNulls[T Element](x T) Option {
	return func(c *config) {
		if c.given&givenFill != 0 && !sameFill(c.fill, x) {
			c.conflict("options FillNulls(%v) and FillNulls(%v) conflict: give one fill value", c.fill, x)
			return
		}
		c.fill, c.given = x, c.given|givenFill
	}
}

// sameFill reports whether two fill values are the same: equal, or both
// NaN of one type.
func sameFill(a, b any) bool {
	return a == b || a != a && b != b && reflect.TypeOf(a) == reflect.TypeOf(b)
}

// fillValue returns the FillNulls value as a T, whether one was given,
// and an error wrapping ErrType and ErrOption when it has another type.
func fillValue[T Element](op string, c config) (T, bool, error) {
	if c.fill == nil {
		return *new(T), false, nil
	}
	x, ok := c.fill.(T)
	if !ok {
		return x, false, wrapKind(ErrOption, errorf(ErrType, "arrow: %s[%s] given FillNulls of a %T: give a %s", op, typeName[T](), c.fill, typeName[T]()))
	}
	return x, true, nil
}
