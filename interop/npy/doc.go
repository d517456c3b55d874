// Package npy reads and writes views as numpy's .npy files and .npz
// archives, the format numpy.save, numpy.load and numpy.savez use.
//
// # Writing
//
// [Write] writes any host view (View0 … View8, DynRankView, offset views)
// of a boolean or numeric element type ([Elem]) in any layout. Contiguous
// views are written as they lie: LayoutRight in C order, LayoutLeft in
// Fortran order (fortran_order True), which numpy reads as the same array
// without a copy. Strided views, padded views and subviews go through a
// contiguous copy, a block at a time, in C order.
//
// # Reading
//
// [Read] reads a file into a new DynRankView of the file's rank and shape;
// [ReadView] into a view kind of the caller's choosing (View0 … View8, or
// DynRankView), which it stores where the caller points. The element type is the caller's type argument and must be
// the file's dtype, in either byte order; a file in Fortran order becomes a
// LayoutLeft view whose elements are the file's, in the file's order, so
// that nothing is transposed.
//
//	var a kokkos.View2[float64]
//	err := npy.ReadView(f, &a, "A")
//	if errors.Is(err, npy.ErrDtype) { ... } // the message names both dtypes
//
// A dtype or rank other than the one asked for is an error naming both
// (ErrDtype, ErrRank); data that is not a .npy file or is cut short is an
// error wrapping ErrFormat, never a panic or a partial view. The reader
// refuses headers above 64 KiB, and, where the input's size is known (a
// file, a bytes.Reader), a shape whose data the input cannot hold, before
// allocating the view; where it is not known, shapes of more than 64 MiB
// are read into a buffer first, so that a corrupt shape fails at the end
// of the input rather than allocating what it claims.
//
// [ReadAny] reads a file of any dtype into a DynRankView of the dtype's
// element type, for a type switch: the way to read a file whose dtype is
// not known in advance. [ReadHeader] reads a file's header alone, to learn
// its dtype and shape; it consumes the reader up to the data.
//
// The header is read as numpy reads it: a Python dict literal, with its
// keys in any order, either quotes, any spacing and comments, and the
// dtype named in any way numpy takes for the types a view holds ('<f8',
// 'f8', 'float64', 'd'). What numpy refuses (a list for the shape, a key
// other than descr, fortran_order and shape) is an error wrapping
// ErrFormat that says what is wrong.
//
// Write writes a view with no elements with its extents: a zero-value
// View2 is a (0, 0) array.
//
// # Archives
//
// An .npz archive is a zip file of .npy files. [NPZWriter] writes one, an
// array at a time (Create, then Write), and refuses a name twice
// (ErrDuplicateName); [OpenNPZ] reads one, and [ReadNPZ] reads an array by
// name, checking the archive's checksum: data that does not match is an
// error wrapping ErrFormat and zip.ErrChecksum. Of a name that an archive
// from another tool holds twice, the last array is read, as numpy reads
// it.
package npy
