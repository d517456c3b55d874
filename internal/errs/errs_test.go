package errs

import (
	"errors"
	"io"
	"testing"
)

func TestPanicError(t *testing.T) {
	e := &PanicError{Label: "axpy", Value: io.EOF, Where: "axpy.go:12"}
	if got, want := e.Error(), `kokkos: panic in kernel "axpy" at axpy.go:12: EOF`; got != want {
		t.Fatalf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(e, io.EOF) {
		t.Fatalf("errors.Is(%v, io.EOF) = false", e)
	}
	e = &PanicError{Label: "fill", Value: 7}
	if got, want := e.Error(), `kokkos: panic in kernel "fill": 7`; got != want {
		t.Fatalf("Error() = %q, want %q", got, want)
	}
	if e.Unwrap() != nil {
		t.Fatalf("Unwrap of a non-error value = %v, want nil", e.Unwrap())
	}
}
