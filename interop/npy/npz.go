package npy

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"strings"

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
	z     *zip.Writer
	names map[string]bool
}

// NewNPZWriter returns an NPZWriter that writes to w. Its arrays are
// stored uncompressed, as numpy.savez stores them.
func NewNPZWriter(w io.Writer) *NPZWriter {
	return &NPZWriter{z: zip.NewWriter(w), names: map[string]bool{}}
}

// Create adds the array name (entry name + ".npy") and returns the writer
// to pass to Write; it is valid until the next Create or Close. It returns
// an error wrapping ErrDuplicateName when the archive already has an array
// of that name: readers would disagree on which of the two to read.
func (z *NPZWriter) Create(name string) (io.Writer, error) {
	if z.names[name] {
		return nil, errkind.Errorf(ErrDuplicateName, "npy: adding array %q to the archive: it already has an array of that name", name)
	}
	w, err := z.z.CreateHeader(&zip.FileHeader{Name: name + ".npy", Method: zip.Store})
	if err != nil {
		return nil, fmt.Errorf("npy: adding array %q to the archive: %w", name, err)
	}
	z.names[name] = true
	return w, nil
}

// Close writes the archive's directory; it does not close the underlying
// writer.
func (z *NPZWriter) Close() error { return z.z.Close() }

// An NPZReader reads the arrays of an .npz archive (numpy.savez and
// numpy.savez_compressed write them), by name.
//
// An archive that another tool wrote may hold a name twice (Python's
// zipfile only warns); an NPZReader reads the last array of the name, as
// numpy does, and Names lists the name once.
type NPZReader struct {
	names []string             // of the arrays, in the archive's order
	files map[string]*zip.File // by entry name, the last of a repeated one
}

// OpenNPZ returns a reader of the archive in r, of size bytes. It returns
// an error wrapping ErrFormat when r is not a zip file.
func OpenNPZ(r io.ReaderAt, size int64) (*NPZReader, error) {
	z, err := zip.NewReader(r, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		// An insecure path ("../x.npy") matters to a tool that extracts
		// files, not to one that reads arrays by name.
		return nil, formatError(err, "not an .npz archive")
	}
	n := &NPZReader{files: map[string]*zip.File{}}
	seen := map[string]bool{}
	for _, f := range z.File {
		n.files[f.Name] = f
		if name := strings.TrimSuffix(f.Name, ".npy"); !seen[name] {
			seen[name] = true
			n.names = append(n.names, name)
		}
	}
	return n, nil
}

// Names returns the names of the archive's arrays (its entries without
// ".npy"), in the archive's order, each once.
func (z *NPZReader) Names() []string { return append([]string(nil), z.names...) }

// Open returns the .npy file of array name, to pass to Read, ReadView or
// ReadAny; the caller closes it. Where the archive holds the name twice,
// it is the last. It returns an error wrapping ErrNoArray, naming the
// arrays there are, when the archive has no such array. The file's data
// is checked against the archive's CRC-32 checksum as it is read: the
// read that would reach its end returns an error wrapping ErrFormat and
// zip.ErrChecksum instead of data that does not match. A reader that
// stops before the end (at a header that corruption cut short) sees no
// such error; ReadNPZ reads the whole file before the view.
func (z *NPZReader) Open(name string) (io.ReadCloser, error) {
	// numpy looks for the entry name first, then for name.npy.
	f := z.files[name]
	if f == nil {
		f = z.files[name+".npy"]
	}
	if f == nil {
		return nil, errkind.Errorf(ErrNoArray, "npy: the archive has no array %q; it has %q", name, z.names)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, formatError(err, "opening array %q of the archive", name)
	}
	return &member{rc: rc, name: name, size: f.UncompressedSize64, want: f.CRC32}, nil
}

// A member reads the data of an archive's entry as the archive's
// directory describes it: its size, checked against its CRC-32 checksum,
// as Python's zipfile reads it. Data that does not match is an error and
// never returned.
type member struct {
	rc   io.ReadCloser
	name string
	size uint64 // of the data, as the directory says
	want uint32 // its checksum, as the directory says
	read uint64
	crc  uint32
	err  error
}

func (m *member) Read(p []byte) (int, error) {
	if m.err != nil {
		return 0, m.err
	}
	if m.read == m.size {
		if m.crc != m.want {
			m.err = m.corrupt(nil)
			return 0, m.err
		}
		return 0, io.EOF
	}
	if left := m.size - m.read; uint64(len(p)) > left {
		p = p[:left]
	}
	n, err := m.rc.Read(p)
	m.crc = crc32.Update(m.crc, crc32.IEEETable, p[:n])
	m.read += uint64(n)
	switch {
	case m.read == m.size && m.crc != m.want:
		// Withheld, so that no reader takes it for data.
		m.err = m.corrupt(nil)
		return 0, m.err
	case m.read == m.size:
		return n, nil
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		// The data ends before its size: the checksum of what there is
		// tells whether it is corrupt or the size is.
		if m.crc != m.want {
			m.err = m.corrupt(io.ErrUnexpectedEOF)
		} else {
			m.err = errkind.Errorf(ErrFormat, "npy: array %q of the archive ends after %d of the %d bytes the archive's directory gives: %w", m.name, m.read, m.size, io.ErrUnexpectedEOF)
		}
		return 0, m.err
	case err != nil:
		var corrupt flate.CorruptInputError
		if errors.As(err, &corrupt) {
			m.err = errkind.Errorf(ErrFormat, "npy: array %q of the archive is corrupt: its compressed data cannot be decompressed: %w", m.name, err)
		} else {
			m.err = formatError(err, "reading array %q of the archive", m.name)
		}
		return n, m.err
	}
	return n, nil
}

// corrupt returns the error of data that does not match its checksum,
// wrapping also cause where it is not nil.
func (m *member) corrupt(cause error) error {
	if cause != nil {
		return errkind.Errorf(ErrFormat, "npy: array %q of the archive is corrupt: its data ends after %d of its %d bytes and does not match the archive's CRC-32 checksum: %w (%w)", m.name, m.read, m.size, zip.ErrChecksum, cause)
	}
	return errkind.Errorf(ErrFormat, "npy: array %q of the archive is corrupt: its %d bytes do not match the archive's CRC-32 checksum: %w", m.name, m.size, zip.ErrChecksum)
}

// Close closes the entry's reader. Its error, the decompressor's state
// beyond the data the directory gives, does not count: the data was
// judged by its checksum, as Python's zipfile judges it.
func (m *member) Close() error {
	_ = m.rc.Close()
	return nil
}

// ReadNPZ reads array name of archive z into a new view labelled name,
// stored in *dst, as ReadView does. It reads the array's .npy file into
// memory first, so that the archive's checksum is checked before the view
// is made: it needs the file's size in memory besides the view's. Data
// that does not match the checksum is an error wrapping ErrFormat and
// zip.ErrChecksum.
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
		if !errors.Is(err, ErrFormat) {
			err = formatError(err, "reading array %q of the archive", name)
		}
		return err
	}
	if err := ReadView(bytes.NewReader(b), dst, name); err != nil {
		return fmt.Errorf("npy: array %q of the archive: %w", name, err)
	}
	return nil
}
