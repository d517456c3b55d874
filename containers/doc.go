// Package containers provides Kokkos's containers over gokkos views:
//
//   - ScatterView: contributions from many threads into one view, through
//     atomics or a copy per thread combined at the end (Kokkos's
//     Experimental::ScatterView).
//   - DualView0 ... DualView8: a view in a device memory space and its
//     host mirror, with the modification counters and sync rules of
//     Kokkos's DualView.
//   - DynamicView: a rank-1 array of chunks that grows without moving the
//     elements it holds (Kokkos's Experimental::DynamicView).
//   - Bitset and ConstBitset: a fixed-size set of bits set, reset and
//     tested atomically from many goroutines, with Kokkos's searches for a
//     set or unset bit near a hint (Kokkos's Bitset).
//   - UnorderedMap: a hash map of a capacity fixed between rehashes, which
//     many threads insert into at once (Kokkos's UnorderedMap).
//
// Each mirrors its Kokkos counterpart's semantics; docs/guide/containers.md
// (and scatter-view.md, unordered-map.md) describe them and their
// differences from Kokkos.
//
// # DualView
//
// NewDualView2[T](label, n0, n1, opts...) allocates the device view as
// kokkos.NewView2 does (InSpace chooses the device space: HostSpace,
// cuda.Space, cuda.HostPinnedSpace, cuda.UVMSpace) and its host mirror.
// When the device space is host-accessible the host view is the device
// view, as Kokkos's create_mirror_view makes it, and syncs copy nothing.
//
// Two counters, shared by copies of the DualView, record which side was
// modified last, exactly as in Kokkos 4.6.1: ModifyHost and ModifyDevice
// mark a side, SyncHost and SyncDevice copy the other side over when it
// is newer (kokkos.DeepCopy, or DeepCopyOn with the On forms) and clear
// both marks, NeedSyncHost and NeedSyncDevice report whether a sync would
// copy, and Modify, Sync and NeedSync take the memory space of the side.
// With the device space HostSpace (Kokkos's single-device DualView) the
// marks are never set.
//
// Marking one side while the other holds changes that were not synced to
// it panics, naming the DualView's label and extents and what to call:
// Kokkos's default build lets the later mark win and silently discards
// the other side's changes at the next sync, and its
// KOKKOS_ENABLE_DEBUG_DUALVIEW_MODIFY_CHECK build aborts, as gokkos does
// always. Sync first, or ClearSyncState to discard the changes.
//
// Resize keeps the elements of the side modified last (the device when
// neither was), makes the other side a new mirror of it and marks the
// resized side modified; Realloc discards the elements. DeepCopyDualView
// copies between two DualViews as Kokkos's deep_copy does, and Subview0
// ... SubviewN give DualViews of part of both views that share the
// counters, as Kokkos's subview of a DualView. A DualView holds
// one reference to each of its views: Release releases them, and Resize
// and Realloc release the views they replace (Retain a view taken from
// ViewHost or ViewDevice to keep it). A DualView is not safe for use by
// several goroutines at once.
package containers
