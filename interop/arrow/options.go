package arrow

// An Option changes how Arrow memory becomes a view or a dal.Array.
type Option func(*config)

type config struct {
	label    string
	writable bool
	fill     any // nil: refuse nulls
}

// DefaultLabel labels the views made from Arrow memory without WithLabel.
const DefaultLabel = "arrow"

func makeConfig(opts []Option) config {
	c := config{label: DefaultLabel}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// WithLabel labels the allocation of the view or dal.Array made from Arrow
// memory (DefaultLabel otherwise): panics and errors about the view name
// the label.
func WithLabel(label string) Option { return func(c *config) { c.label = label } }

// Writable makes the view writable, or the dal.Array mutable, over the
// Arrow memory itself: a write through it changes what every Arrow array
// sharing that buffer reads. Arrow arrays are meant to be immutable once
// built, so use it only on memory no one else reads meanwhile. A buffer
// that is not mutable (memory.Buffer.Mutable, such as one wrapping bytes
// that Arrow did not allocate, or a mapped file) is refused with an error
// wrapping kokkos.ErrReadOnly.
func Writable() Option { return func(c *config) { c.writable = true } }

// FillNulls accepts Arrow data with nulls: the result is then a new
// host view or array, owned by the caller and writable, holding a copy of
// the values with x in each null slot (for a fixed-size list, in each
// element of a null list and each null element). Without nulls the
// result shares the Arrow memory as usual. x must have the element type
// asked for, or the conversion returns an error wrapping ErrType.
func FillNulls[T Element](x T) Option { return func(c *config) { c.fill = x } }

// fillValue returns the FillNulls value as a T, whether one was given,
// and an error wrapping ErrType when it has another type.
func fillValue[T Element](op string, c config) (T, bool, error) {
	if c.fill == nil {
		return *new(T), false, nil
	}
	x, ok := c.fill.(T)
	if !ok {
		return x, false, errorf(ErrType, "arrow: %s[%s] given FillNulls of a %T: give a %s", op, typeName[T](), c.fill, typeName[T]())
	}
	return x, true, nil
}
