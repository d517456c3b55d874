package containers

// umapAtError is the panic value of KeyAt, ValueAt and ValuePtr for the
// zero map or an index at or above the capacity: a value whose Error
// formats the message, so that the accessors stay small enough to inline.
type umapAtError struct {
	m interface {
		atMessage(method string, i uint32) string
	}
	method string
	i      uint32
}

func (e umapAtError) Error() string { return e.m.atMessage(e.method, e.i) }
