package errkind

import (
	"errors"
	"io"
	"testing"
)

func TestErrorf(t *testing.T) {
	kind := errors.New("kind")
	other := errors.New("other")
	err := Errorf(kind, "view %q: %w", "A", io.EOF)
	if err.Error() != `view "A": EOF` {
		t.Fatalf("message %q", err)
	}
	if !errors.Is(err, kind) || !errors.Is(err, io.EOF) || errors.Is(err, other) {
		t.Fatalf("errors.Is: kind %v, cause %v, other %v", errors.Is(err, kind), errors.Is(err, io.EOF), errors.Is(err, other))
	}
	if w := Wrap(kind, io.ErrUnexpectedEOF); w.Error() != io.ErrUnexpectedEOF.Error() || !errors.Is(w, kind) || !errors.Is(w, io.ErrUnexpectedEOF) {
		t.Fatalf("Wrap: %v", w)
	}
}
