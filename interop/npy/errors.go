package npy

import "errors"

// Sentinel errors. Every error the package returns wraps at most one of
// these (besides the reader's or writer's own errors), so that a caller can
// test the kind of failure with errors.Is while the message names the
// file's dtype, shape and rank and what was asked.
var (
	// ErrFormat: the input is not a .npy file this package can read: a bad
	// magic string, version or header, or a file cut short (then the error
	// also wraps io.ErrUnexpectedEOF).
	ErrFormat = errors.New("npy: invalid .npy data")
	// ErrDtype: the file's dtype is not the element type asked for, or not
	// one a view can hold (strings, objects, records, float16).
	ErrDtype = errors.New("npy: dtype mismatch")
	// ErrRank: the file's rank is not the one asked for (a View2 for a file
	// of shape (2, 3, 4)), or above what the view kind holds.
	ErrRank = errors.New("npy: rank mismatch")
	// ErrNoArray: an .npz archive has no array of the name asked for.
	ErrNoArray = errors.New("npy: no such array in the archive")
	// ErrDuplicateName: an .npz archive being written already has an
	// array of the name.
	ErrDuplicateName = errors.New("npy: array name already in the archive")
)
