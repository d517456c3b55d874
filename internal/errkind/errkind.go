// Package errkind gives the module's packages one way to make an error of
// a sentinel kind: its message is the text alone, and errors.Is finds both
// the kind and any error the text wrapped.
package errkind

import "fmt"

type kindError struct {
	kind error
	err  error
}

func (e *kindError) Error() string   { return e.err.Error() }
func (e *kindError) Unwrap() []error { return []error{e.kind, e.err} }

// Errorf formats an error of kind kind (a sentinel), as fmt.Errorf does,
// without adding the kind's text to the message.
func Errorf(kind error, format string, a ...any) error {
	return Wrap(kind, fmt.Errorf(format, a...))
}

// Wrap returns err, with its message unchanged, as an error of kind kind.
func Wrap(kind, err error) error { return &kindError{kind: kind, err: err} }
