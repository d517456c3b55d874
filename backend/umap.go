package backend

// A UMap is the argument of a parameter of type
// containers.UnorderedMap[K, V] (Param.UMap): the map's arrays, views of
// rank 1 in one memory space, laid out as containers.UnorderedMap and
// Kokkos's UnorderedMap hold them. Used is the bitset of the indices that
// hold an entry (uint32 words), Heads the first index of each hash list
// (uint32, UnorderedMapInvalidIndex for an empty list), Next the index
// after each index in its list (uint32, capacity+1 of them), Flags's
// element 0 the failed-insert flag (uint32, 0 or 1), Keys and Values the
// entries by index (Keys's extent is the capacity; Values has rank 0 for
// a set). While Erasable every insert fails; when Bounded an insert gives
// up after 32 bitset blocks without a free bit.
type UMap struct {
	Used, Heads, Next, Flags, Keys, Values View
	Erasable, Bounded                      bool
}

// UMapArrays names the arrays of a UMap, in the order of its fields.
var UMapArrays = [...]string{"used", "heads", "next", "flags", "keys", "values"}

// Views returns pointers to u's arrays, in the order of UMapArrays.
func (u *UMap) Views() [6]*View {
	return [6]*View{&u.Used, &u.Heads, &u.Next, &u.Flags, &u.Keys, &u.Values}
}
