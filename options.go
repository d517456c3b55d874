package kokkos

import (
	"fmt"
	"slices"
	"strings"
)

// An Option adjusts how a view is allocated: its layout, padding,
// initialization, memory space and traits. Layout values (LayoutRight,
// LayoutLeft, LayoutStride) are options too.
type Option interface{ apply(*config) }

type config struct {
	layout  Layout
	strides []int
	// layoutBy names the option that set the layout ("" for the default),
	// and err is the first conflict between options, which the
	// constructors return.
	layoutBy string
	err      error
	noInit   bool
	pad      bool
	space    MemorySpace
	traits   Trait
	// wrapLabel is the label of a view made by a Wrap constructor.
	wrapLabel string
	// addr is the address a Wrap constructor wraps (AtAddress).
	addr uintptr
	// exec is the instance that initializes the view (WithExec), or nil.
	exec ExecutionSpace
	// given records options whose effect cannot be told from the
	// fields' values (an explicit LayoutRight).
	given optionSet
}

// optionSet records which options were given.
type optionSet uint8

const (
	givenLayout optionSet = 1 << iota
	givenSpace
)

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

func (l Layout) apply(c *config) { c.setLayout(l, nil, l.String()) }

// setLayout records layout l with strides (nil: computed) given by option
// by. A second option may repeat the layout, and leave out the strides,
// but not change them: that is a conflict, which c.err records naming
// both options.
func (c *config) setLayout(l Layout, strides []int, by string) {
	if c.layoutBy != "" {
		if c.layout != l || strides != nil && c.strides != nil && !slices.Equal(strides, c.strides) {
			if c.err == nil {
				c.err = errorf(ErrLayout, "options %s and %s conflict: give one layout", c.layoutBy, by)
			}
			return
		}
		if strides == nil {
			return
		}
	}
	c.layout, c.layoutBy = l, by
	c.given |= givenLayout
	if strides != nil {
		c.strides = strides
	}
}

// switchOption is the type of the options that set one switch. They are
// constants, so that no code can reassign them.
type switchOption uint8

const (
	// WithoutInitializing skips filling a new view with zero values.
	// Go-heap memory is always zeroed by the runtime, so it matters only
	// for spaces outside the Go heap, where the contents are then
	// unspecified.
	WithoutInitializing switchOption = iota + 1

	// AllowPadding lets the allocation pad the contiguous dimension (the
	// last one for LayoutRight, the first one for LayoutLeft) so that each
	// row or column starts on a 64-byte boundary, by Kokkos's rule: for
	// views of rank 2 and more whose element size divides 64, an extent
	// greater than the elements in 64 bytes and not a multiple of them is
	// rounded up to the next multiple; smaller extents are not padded.
	// Unlike Kokkos, a padded row whose bytes are a whole multiple of 4 KiB
	// gets one more 64-byte line (4096 float64s become 4104), so that
	// walking down a column does not fall into a few cache sets.
	AllowPadding
)

func (o switchOption) apply(c *config) {
	switch o {
	case WithoutInitializing:
		c.noInit = true
	case AllowPadding:
		c.pad = true
	}
}

// InSpace allocates the view in s instead of HostSpace. With AtAddress,
// it names the space of the memory a Wrap constructor wraps. Two InSpace
// options naming different spaces conflict: the constructor returns an
// error wrapping ErrOption.
func InSpace(s MemorySpace) Option {
	return optionFunc(func(c *config) {
		if c.given&givenSpace != 0 && c.space != s {
			if c.err == nil {
				c.err = errorf(ErrOption, "options InSpace(%s) and InSpace(%s) conflict: give one memory space", memSpaceName(c.space), memSpaceName(s))
			}
			return
		}
		c.space, c.given = s, c.given|givenSpace
	})
}

func memSpaceName(s MemorySpace) string {
	if s == nil {
		return "nil"
	}
	return s.Name()
}

// AtAddress makes a Wrap constructor wrap the memory at addr, in the space
// that InSpace names, instead of a slice (pass nil for the slice): a device
// pointer made by another library, as Kokkos's View(ptr, extents...) over
// memory of any space. The space must be one the host cannot access (host
// memory is wrapped as a slice). The view is unmanaged: the caller keeps
// the memory alive, at least the view's span, until the last use of the
// view and of work queued on it, and frees it afterwards.
func AtAddress(addr uintptr) Option { return optionFunc(func(c *config) { c.addr = addr }) }

// WithTraits sets memory traits on the view. Unmanaged is implied by the
// Wrap constructors and is rejected by the allocating ones.
func WithTraits(t Trait) Option { return optionFunc(func(c *config) { c.traits |= t }) }

// WithStrides gives explicit strides, in elements, one per dimension, and
// selects LayoutStride. Another layout among the same options (LayoutRight,
// LayoutLeft, or WithStrides with other strides) is a conflict: the
// constructor returns an error wrapping ErrLayout.
func WithStrides(strides ...int) Option {
	s := append([]int{}, strides...)
	by := "WithStrides" + fmtInts(s)
	return optionFunc(func(c *config) { c.setLayout(LayoutStride, s, by) })
}

// specOption is the layout option of a LayoutSpec given to a From
// constructor: its layout and, when it has them, its strides.
func specOption(spec LayoutSpec) Option {
	var s []int
	by := "LayoutSpec{" + spec.Layout.String()
	if len(spec.Strides) > 0 {
		s = append([]int{}, spec.Strides...)
		by += ", strides " + fmtInts(s)
	}
	by += "}"
	return optionFunc(func(c *config) { c.setLayout(spec.Layout, s, by) })
}

// Which constructor family an option is given to, for optionsFor.
const (
	forAlloc   = iota // NewViewN, NewViewNFrom, NewDynRankView, NewOffsetViewN
	forWrap           // WrapViewN, WrapDynRankView, WrapOffsetViewN
	forResize         // Resize, Realloc and DynRankView's, of an allocated view
	forScratch        // ScratchViewN
)

// optionsFor returns an error wrapping ErrOption, naming the first option
// in c that a constructor of family kind cannot apply, or nil. An
// allocating constructor takes its label as an argument and allocates its
// own memory (WithLabel, AtAddress); a Wrap constructor takes memory whose
// layout and contents are the caller's (AllowPadding, WithoutInitializing).
func optionsFor(c *config, kind int) error {
	const (
		keeps   = "Resize and Realloc keep the view's label, layout, memory space and traits, and take only WithoutInitializing and WithExec"
		scratch = "a scratch view takes the pad's memory as it is, and only a layout (WithStrides included) and traits"
	)
	var bad, why string
	switch {
	case kind == forAlloc && c.wrapLabel != "":
		bad, why = fmt.Sprintf("WithLabel(%q)", c.wrapLabel), "an allocating constructor takes its label as its first argument"
	case kind == forAlloc && c.addr != 0:
		bad, why = fmt.Sprintf("AtAddress(%#x)", c.addr), "an allocating constructor allocates its own memory: wrap memory at an address with a Wrap constructor"
	case kind == forWrap && c.pad:
		bad, why = "AllowPadding", "a wrapped slice has the strides of its layout or of WithStrides; give padded strides with WithStrides"
	case kind == forWrap && c.noInit:
		bad, why = "WithoutInitializing", "a Wrap constructor never writes the caller's memory"
	case kind == forWrap && c.exec != nil:
		bad, why = execOptionName(c.exec), "a Wrap constructor never writes the caller's memory, so nothing runs on an execution space"
	case kind == forResize && c.given&givenLayout != 0:
		bad, why = c.layoutBy, keeps
	case kind == forResize && c.given&givenSpace != 0:
		bad, why = fmt.Sprintf("InSpace(%s)", memSpaceName(c.space)), keeps
	case kind == forResize && c.pad:
		bad, why = "AllowPadding", keeps
	case kind == forResize && c.traits != 0:
		bad, why = fmt.Sprintf("WithTraits(%v)", c.traits), keeps
	case kind == forResize && (c.wrapLabel != "" || c.addr != 0):
		bad, why = "WithLabel or AtAddress", keeps
	case kind == forScratch && c.given&givenSpace != 0:
		bad, why = fmt.Sprintf("InSpace(%s)", memSpaceName(c.space)), scratch
	case kind == forScratch && c.pad:
		bad, why = "AllowPadding", scratch
	case kind == forScratch && c.noInit:
		bad, why = "WithoutInitializing", scratch
	case kind == forScratch && c.wrapLabel != "":
		bad, why = fmt.Sprintf("WithLabel(%q)", c.wrapLabel), scratch
	case kind == forScratch && c.addr != 0:
		bad, why = fmt.Sprintf("AtAddress(%#x)", c.addr), scratch
	case kind == forScratch && c.exec != nil:
		bad, why = execOptionName(c.exec), scratch
	default:
		return nil
	}
	return errorf(ErrOption, "option %s does not apply: %s", bad, why)
}

func makeConfig(opts []Option) config {
	c := config{layout: LayoutRight, space: HostSpace}
	if len(opts) == 0 {
		// The options' apply methods make c escape: without options, the
		// constructors allocate nothing for it.
		return c
	}
	return applyOptions(c, opts)
}

func applyOptions(c config, opts []Option) config {
	for _, o := range opts {
		if o != nil {
			o.apply(&c)
		}
	}
	if c.space == nil {
		c.space = HostSpace
	}
	return c
}

// A Trait is a memory-access property of a view, as Kokkos's MemoryTraits.
type Trait uint8

const (
	// Unmanaged marks a view over memory the caller owns, or an alias
	// (AsTraits) of another view that does not count holders: its
	// UseCount is 0, and its Retain and Release do nothing.
	Unmanaged Trait = 1 << iota
	// Atomic makes every access to the view's elements atomic, as Kokkos's
	// Atomic memory trait: they are read, written and updated only through
	// Ref (v.Ref(i).Add(x) for Kokkos's v(i) += x), and At, Set, Ptr,
	// Access, Data, Row and Col panic. It needs an element type of 1, 2, 4
	// or 8 bytes that holds no Go pointers; the constructors return an
	// error wrapping ErrElementType for others.
	Atomic
	// RandomAccess hints that elements are read in no particular order;
	// it is recorded, and used by device backends for read-only views.
	RandomAccess
	// Restrict promises that no other view aliases this one in the current
	// scope; it is recorded for backends that can use it.
	Restrict
)

// String returns the traits joined by "|", such as "Atomic|Restrict".
func (t Trait) String() string {
	var parts []string
	for i, name := range []string{"Unmanaged", "Atomic", "RandomAccess", "Restrict"} {
		if t&(1<<i) != 0 {
			parts = append(parts, name)
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "|")
}
