package gonum

import "errors"

// ErrAtomic: a view with the Atomic trait was given where its elements
// would be shared with gonum, whose loads and stores are not atomic. Copy
// it with CopyDense or CopyVecDense, or use a view of the same memory
// without the trait (AsTraits) once no atomic updates run.
var ErrAtomic = errors.New("gonum: view has the Atomic trait")

// ErrNil: FromDense or FromVecDense was given a nil matrix or vector, which
// has no storage to share.
var ErrNil = errors.New("gonum: nil matrix or vector")
