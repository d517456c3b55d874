package npy

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"strings"

	"codeberg.org/sbinet/npyio/npz"
	"github.com/gokkos/kokkos/internal/errkind"
)

// An NPZWriter writes an .npz archive, numpy's file of several named
// arrays (numpy.savez): a zip file with one .npy file per array.
//
//	z := npy.NewNPZWriter(f)
//	w, err := z.Create("x") // the entry x.npy
//	err = npy.Write(w, x)
//	err = z.Close()
type NPZWriter struct {
	z *zip.Writer
}

// NewNPZWriter returns an NPZWriter that writes to w. Its arrays are
// stored uncompressed, as numpy.savez stores them.
func NewNPZWriter(w io.Writer) *NPZWriter { return &NPZWriter{z: zip.NewWriter(w)} }

// Create adds the array name (entry name + ".npy") and returns the writer
// to pass to Write; it is valid until the next Create or Close.
func (z *NPZWriter) Create(name string) (io.Writer, error) {
	w, err := z.z.CreateHeader(&zip.FileHeader{Name: name + ".npy", Method: zip.Store})
	if err != nil {
		return nil, fmt.Errorf("npy: adding array %q to the archive: %w", name, err)
	}
	return w, nil
}

// Close writes the archive's directory; it does not close the underlying
// writer.
func (z *NPZWriter) Close() error { return z.z.Close() }

// An NPZReader reads the arrays of an .npz archive (numpy.savez and
// numpy.savez_compressed write them), by name.
type NPZReader struct {
	r *npz.Reader
}

// OpenNPZ returns a reader of the archive in r, of size bytes. It returns
// an error wrapping ErrFormat when r is not a zip file.
func OpenNPZ(r io.ReaderAt, size int64) (*NPZReader, error) {
	z, err := npz.NewReader(r, size)
	if err != nil {
		return nil, formatError(err, "not an .npz archive")
	}
	return &NPZReader{r: z}, nil
}

// Names returns the names of the archive's arrays (its entries without
// ".npy"), in the archive's order.
func (z *NPZReader) Names() []string {
	var names []string
	for _, k := range z.r.Keys() {
		names = append(names, strings.TrimSuffix(k, ".npy"))
	}
	return names
}

// Open returns the .npy file of array name, to pass to Read or ReadView;
// the caller closes it. It returns an error wrapping ErrNoArray, naming
// the arrays there are, when the archive has no such array.
func (z *NPZReader) Open(name string) (io.ReadCloser, error) {
	for _, k := range z.r.Keys() {
		if k == name+".npy" || k == name {
			rc, err := z.r.Open(k)
			if err != nil {
				return nil, formatError(err, "opening array %q", name)
			}
			return rc, nil
		}
	}
	return nil, errkind.Errorf(ErrNoArray, "npy: the archive has no array %q; it has %q", name, z.Names())
}

// ReadNPZ reads array name of archive z into a new view labelled name,
// stored in *dst, as ReadView does. It reads the array's .npy file into
// memory first, so that the archive's checksum is checked before the view
// is made: it needs the file's size in memory besides the view's.
func ReadNPZ[T Elem](z *NPZReader, name string, dst interface{ Data() []T }) error {
	rc, err := z.Open(name)
	if err != nil {
		return err
	}
	b, err := io.ReadAll(rc)
	if cerr := rc.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return formatError(err, "reading array %q of the archive", name)
	}
	if err := ReadView(bytes.NewReader(b), dst, name); err != nil {
		return fmt.Errorf("npy: array %q of the archive: %w", name, err)
	}
	return nil
}
