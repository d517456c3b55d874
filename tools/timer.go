package tools

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"text/tabwriter"
	"time"
)

// KernelTimer is a Tool that times every kernel and sums the times per
// label and kind, as Kokkos Tools' kernel timer does. Register a
// *KernelTimer; its zero value is ready to use.
type KernelTimer struct {
	Nop
	// Out is where Finalize prints the table; nil means os.Stdout.
	Out io.Writer

	mu      sync.Mutex
	running map[uint64]timing
	stats   map[kernelKey]*KernelStat
}

type kernelKey struct{ label, kind string }

type timing struct {
	key   kernelKey
	start time.Time
}

// A KernelStat is one row of a KernelTimer's table: the kernels of one
// label and kind.
type KernelStat struct {
	Label string
	Kind  string // "parallel_for", "parallel_reduce" or "parallel_scan"
	Calls int
	Total time.Duration
	Mean  time.Duration // Total / Calls
	Share float64       // Total over the total of all rows, from 0 to 1
}

func (t *KernelTimer) begin(kind, name string, id uint64) {
	now := time.Now()
	t.mu.Lock()
	if t.running == nil {
		t.running = map[uint64]timing{}
	}
	t.running[id] = timing{kernelKey{name, kind}, now}
	t.mu.Unlock()
}

func (t *KernelTimer) end(id uint64) {
	now := time.Now()
	t.mu.Lock()
	defer t.mu.Unlock()
	r, ok := t.running[id]
	if !ok {
		return
	}
	delete(t.running, id)
	if t.stats == nil {
		t.stats = map[kernelKey]*KernelStat{}
	}
	s := t.stats[r.key]
	if s == nil {
		s = &KernelStat{Label: r.key.label, Kind: r.key.kind}
		t.stats[r.key] = s
	}
	s.Calls++
	s.Total += now.Sub(r.start)
}

func (t *KernelTimer) BeginParallelFor(name string, _ uint32, id uint64) {
	t.begin("parallel_for", name, id)
}
func (t *KernelTimer) EndParallelFor(id uint64) { t.end(id) }
func (t *KernelTimer) BeginParallelReduce(name string, _ uint32, id uint64) {
	t.begin("parallel_reduce", name, id)
}
func (t *KernelTimer) EndParallelReduce(id uint64) { t.end(id) }
func (t *KernelTimer) BeginParallelScan(name string, _ uint32, id uint64) {
	t.begin("parallel_scan", name, id)
}
func (t *KernelTimer) EndParallelScan(id uint64) { t.end(id) }

// Stats returns the table: one row per label and kind of the kernels
// that have ended, the longest total first (then by label and kind).
func (t *KernelTimer) Stats() []KernelStat {
	t.mu.Lock()
	defer t.mu.Unlock()
	var all time.Duration
	rows := make([]KernelStat, 0, len(t.stats))
	for _, s := range t.stats {
		all += s.Total
		rows = append(rows, *s)
	}
	for i := range rows {
		rows[i].Mean = rows[i].Total / time.Duration(rows[i].Calls)
		if all > 0 {
			rows[i].Share = float64(rows[i].Total) / float64(all)
		}
	}
	slices.SortFunc(rows, func(a, b KernelStat) int {
		return cmp.Or(cmp.Compare(b.Total, a.Total), cmp.Compare(a.Label, b.Label), cmp.Compare(a.Kind, b.Kind))
	})
	return rows
}

// WriteTable writes the table of Stats to w, one row per kernel label.
func (t *KernelTimer) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "kernel\ttype\tcalls\ttotal\tmean\tshare\t")
	for _, s := range t.Stats() {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%v\t%v\t%.1f%%\t\n", s.Label, s.Kind, s.Calls, s.Total, s.Mean, 100*s.Share)
	}
	return tw.Flush()
}

// Finalize prints the table to Out.
func (t *KernelTimer) Finalize() {
	w := t.Out
	if w == nil {
		w = os.Stdout
	}
	t.WriteTable(w)
}
