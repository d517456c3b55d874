// Package dal provides Array, a flat array with shared ownership and
// immutable or mutable data, modelled on oneDAL's array<T>.
//
// An Array is a handle on one contiguous block of elements. The block is
// owned by a kokkos.Allocation, the same record that owns the memory of
// kokkos views, so arrays and rank-1 views convert into each other without
// copying (Array.View, FromView) and count holders together.
//
// # Making arrays
//
// Empty, Zeros and Full allocate a new block that the array owns, with
// mutable data, in kokkos.HostSpace or, with InSpace, in another memory
// space. Wrap and WrapMutable put a handle on the caller's slice without
// copying and never free it. WrapWithDeleter and WrapMutableWithDeleter
// take ownership of the caller's memory: the deleter runs exactly once,
// when the block's last holder is released.
//
// # Handles, holds, and why Go needs Share and Release
//
// In C++ an array's copy constructor adds a reference and its destructor
// drops one. Go copies values silently and has no destructors, so dal
// separates two things. The handle (which block an Array reads, where, how
// many elements, and whether it may write them) is the Array value itself:
// every copy is a handle of its own. The hold (one count on the block's
// kokkos.Allocation) is taken explicitly and shared by the copies of the
// value that took it:
//
//   - a.Share() returns a handle with a new hold: the copy constructor. So
//     do a.Slice, Cast, FromView and the ResetAlias forms; a.View() returns
//     a view with a hold of its own.
//   - b := a (assignment, passing a as an argument, storing it in a struct)
//     is a borrowed copy: a handle of its own that counts nothing, and
//     shares a's hold. DiscardMutableData changes b alone. b is valid until
//     the hold is released or moved by NeedMutableData (see below), and is
//     not released itself.
//   - a.Release() ends the hold: the destructor. The handle and every copy
//     sharing the hold are released: their data may no longer be used, and
//     a second Release, through any of them, returns ErrReleasedTwice.
//   - b.Assign(a) ends b's hold and gives b a new hold on a's block, with a's
//     elements: oneDAL's copy assignment b = a. b.Move(&a) hands a's handle
//     and hold to b, ends b's old hold and leaves a empty: oneDAL's move
//     assignment. A Reset form (a.Reset, a.ResetCount, ...) ends the
//     variable's hold and gives it a new one: oneDAL's reset. Assigning a
//     new array to a variable (b = a.Share(), b = dal.Wrap(x)) does not
//     release what b held: use Assign, or Release first.
//
// Ending a hold releases it for every copy sharing it, so Release, the
// Reset forms, Assign and Move belong to the variable that took the hold,
// not to a borrowed copy; through a copy, the original sees its hold
// released (its methods report ErrReleased), which dal detects but cannot
// prevent.
//
// A hold holds one block at a time, so that a block's UseCount is oneDAL's
// "number of array objects sharing the same data". NeedMutableData copies
// the elements into a new block and moves the handle's hold there, giving
// up its count on the original block at once, as oneDAL's
// need_mutable_data does: the original's count drops by one, and its
// deleter runs then if that hold was its last holder. NeedMutableData
// therefore belongs with Release to the variable that took the hold: a
// borrowed copy left on the original block is released. For a private
// mutable copy that leaves the original readable, take a hold first,
// c := a.Share(); c.NeedMutableData(), as oneDAL's copy constructor does
// (a function that receives an array and wants to write does the same),
// or use Clone.
//
// Element memory is freed when the last holder releases the block: the
// deleter runs, or memory outside the Go heap (a backend.BlockSpace) is
// returned to its space. Go memory (Empty, Zeros and Full in HostSpace, Wrap)
// is reclaimed by the garbage collector once nothing refers to it, so a
// forgotten Release there costs nothing; for a deleter or a block space it
// is a leak. Release what you Share.
//
// # Mutability
//
// Mutability belongs to the handle. MutableData returns ErrNoMutableData
// for a handle holding immutable data; Data always reads. NeedMutableData
// gives an immutable handle's hold a private mutable copy of its elements
// and leaves the other holds on the original block as they were;
// DiscardMutableData makes a handle read-only. Go has no read-only slices:
// the slice that Data returns must not be written unless HasMutableData is
// true, and dal cannot detect such a write.
//
// # Memory spaces
//
// An array in a space the host cannot access (GPU memory) has no host
// slice: Data and At panic, MutableData returns an error, and Addr gives
// the element address in the space. Slice, Cast, Share and View work as
// for host memory; copy elements to and from the host with kokkos.DeepCopy
// on the array's View. Full and NeedMutableData work there too when the
// space implements backend.CopySpace: Full fills the new block with
// kokkos.Fill, and NeedMutableData copies into a new block of the same
// space with kokkos.DeepCopy, without passing through the host. In a space
// that implements neither host access nor backend.CopySpace they return an
// error. Zeros asks the space for zero-filled memory; Empty leaves it as
// the space gives it.
package dal
