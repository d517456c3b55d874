package kokkos

// A Shape describes a view without its elements: its label, rank,
// extents, strides, layout, space and traits, and the allocation it shares.
// ShapeOf returns it for any view kind, so that a function generic over
// View[T] can ask what it was given, as code over image.Image asks Bounds
// and code over gonum's mat.Matrix asks Dims. For element access, such a
// function converts the view with DynRankFrom (ranks 0 to 7), whose
// accessors take any number of indices from the rank to 7.
type Shape struct {
	Label string // the label given at allocation, kept by subviews
	Rank  int
	// Extents[r] is the number of valid indices of dimension r, and
	// Strides[r] the distance, in elements, between consecutive ones.
	Extents, Strides []int
	// Begins[r] is the first index of dimension r: 0 but for offset views.
	Begins []int
	// Size is the number of elements, the product of the extents; Span is
	// the number from the first to one past the last element the view
	// addresses, which exceeds Size when the view is padded or strided.
	Size, Span int
	Layout     Layout
	Space      MemorySpace
	Traits     Trait
	ReadOnly   bool // writes through the view panic
	// Allocation is the record the view shares with its parent, subviews
	// and conversions, through which UseCount, Retain and Release reach
	// it; nil for the zero view. Offset is the number of elements from
	// the Allocation's first byte to the view's first element (index
	// Begins): where ViewOnAllocation1 and ViewOnAllocation2 make a view of
	// the same elements.
	Allocation *Allocation
	Offset     int
}

// ShapeOf describes v, which may be any view kind (View0 to View8,
// OffsetView1 to OffsetView8 or DynRankView, or a pointer to one). The
// slices in the result are v's at the time of the call, not shared with
// it. The zero view has rank its kind's rank (0 for a zero DynRankView),
// size and span 0, and no allocation.
//
// Every view kind has methods of the same names (Rank, Extent, Stride,
// Size, Span, Label, Layout, Space, Traits, IsReadOnly, Allocation); ShapeOf
// is what reaches them through the View interface, which the view values
// implement as well as their pointers.
func ShapeOf[T any](v View[T]) Shape {
	d := v.viewDesc()
	s := Shape{
		Label:      d.label(),
		Rank:       d.rank,
		Extents:    append([]int{}, d.extents()...),
		Strides:    append([]int{}, d.strides()...),
		Begins:     make([]int, d.rank),
		Layout:     d.layout,
		Space:      d.rec.Space(),
		Traits:     d.traits,
		ReadOnly:   d.flags&flagReadOnly != 0,
		Allocation: d.rec,
		Offset:     d.off,
	}
	if d.rec != nil {
		s.Size, s.Span = d.size(), d.span()
	}
	if o, ok := v.(interface{ viewBegins() [MaxRank]int }); ok {
		b := o.viewBegins()
		copy(s.Begins, b[:d.rank])
	}
	return s
}
