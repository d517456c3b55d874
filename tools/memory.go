package tools

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
)

// MemoryHighWater is a Tool that follows the bytes allocated in each
// memory space and records the most ever held at once, as Kokkos Tools'
// memory high-water mark tool does. Register a *MemoryHighWater; its zero
// value is ready to use.
//
// Go memory that is never released is deallocated, for the tool, when the
// garbage collector reclaims it, so the current figure of "Host" depends
// on the collector; the high-water mark counts every allocation from the
// moment it is made.
type MemoryHighWater struct {
	Nop
	// Out is where Finalize prints the table; nil means os.Stdout.
	Out io.Writer

	mu     sync.Mutex
	spaces map[string]*MemoryStat
}

// A MemoryStat is one row of a MemoryHighWater's table: one memory space.
type MemoryStat struct {
	Space         string // "Host", "Cuda", "CudaUVM", "CudaHostPinned"
	Current       uint64 // bytes allocated and not yet deallocated
	HighWater     uint64 // the most bytes allocated at once
	Allocations   int
	Deallocations int
}

func (m *MemoryHighWater) space(name string) *MemoryStat {
	if m.spaces == nil {
		m.spaces = map[string]*MemoryStat{}
	}
	s := m.spaces[name]
	if s == nil {
		s = &MemoryStat{Space: name}
		m.spaces[name] = s
	}
	return s
}

func (m *MemoryHighWater) AllocateData(space, _ string, _ uintptr, size uint64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.space(space)
	s.Allocations++
	s.Current += size
	s.HighWater = max(s.HighWater, s.Current)
}

func (m *MemoryHighWater) DeallocateData(space, _ string, _ uintptr, size uint64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.space(space)
	s.Deallocations++
	s.Current -= min(size, s.Current)
}

// Stats returns the table: one row per memory space that saw an event,
// by space name.
func (m *MemoryHighWater) Stats() []MemoryStat {
	m.mu.Lock()
	defer m.mu.Unlock()
	rows := make([]MemoryStat, 0, len(m.spaces))
	for _, s := range m.spaces {
		rows = append(rows, *s)
	}
	slices.SortFunc(rows, func(a, b MemoryStat) int { return strings.Compare(a.Space, b.Space) })
	return rows
}

// WriteTable writes the table of Stats to w, one row per memory space.
func (m *MemoryHighWater) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "space\thigh water (bytes)\tcurrent (bytes)\tallocations\tdeallocations\t")
	for _, s := range m.Stats() {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t\n", s.Space, s.HighWater, s.Current, s.Allocations, s.Deallocations)
	}
	return tw.Flush()
}

// Finalize prints the table to Out.
func (m *MemoryHighWater) Finalize() {
	w := m.Out
	if w == nil {
		w = os.Stdout
	}
	m.WriteTable(w)
}
