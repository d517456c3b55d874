package kokkos

import "math"

// PartitionSpace splits exec into len(weights) instances that run work
// independently of each other, as Kokkos::Experimental::partition_space
// does: the instances are distinct, work submitted to one runs
// concurrently with the others' work, and each one's Fence waits for its
// own work only.
//
// For a *Threads (of any kind: a pool's synchronous instance or an
// asynchronous one), the instances are asynchronous *Threads instances
// (see NewInstance), each on a pool of its own. The pools share
// exec.Concurrency() participants out in proportion to the weights, each
// at least one; the pools are new goroutines, and exec's own workers stay
// exec's. Close each instance when done: it fences the instance and stops
// its pool's workers. An instance that becomes unreachable without Close
// has its pool stopped by the garbage collector, as NewThreads' pools do.
//
// For Serial, which runs everything on the calling goroutine and has no
// state, the instances are Serial{} values: each runs its work at once,
// and its Fence has nothing to wait for.
//
// The weights are relative (1, 1 splits in halves; 1, 3 in a quarter and
// three quarters) and must be positive finite numbers; PartitionSpace
// returns an error wrapping ErrPartition for no weights, another weight,
// or more weights than exec has participants.
func PartitionSpace[S HostExecutionSpace](exec S, weights ...float64) ([]S, error) {
	out := make([]S, len(weights))
	switch e := any(exec).(type) {
	case Serial:
		if err := checkWeights(weights, len(weights)); err != nil {
			return nil, err
		}
		return out, nil
	case *Threads:
		sizes, err := partitionSizes(e.Concurrency(), weights)
		if err != nil {
			return nil, err
		}
		if e.pool.Closed() {
			panic("kokkos: PartitionSpace of a Threads instance whose pool is closed; partition a pool that is open (NewThreads)")
		}
		for i, n := range sizes {
			inst := NewThreads(n).NewInstance()
			inst.ownsPool = true
			out[i] = any(inst).(S)
		}
		return out, nil
	}
	return nil, errorf(ErrPartition, "PartitionSpace cannot split a %s execution space", exec.Name())
}

// checkWeights returns an error wrapping ErrPartition when weights cannot
// split a space of n participants.
func checkWeights(weights []float64, n int) error {
	if len(weights) == 0 {
		return errorf(ErrPartition, "PartitionSpace needs at least one weight, one per instance")
	}
	for i, w := range weights {
		if !(w > 0) || math.IsInf(w, 1) {
			return errorf(ErrPartition, "PartitionSpace weight %d is %v; each weight must be a positive finite number", i, w)
		}
	}
	if len(weights) > n {
		return errorf(ErrPartition, "PartitionSpace of a space with %d participants into %d instances: each instance needs at least one; pass at most %d weights", n, len(weights), n)
	}
	return nil
}

// partitionSizes shares n participants out by weights: each share is at
// least 1, and the rest go by largest remainder, so that the shares are as
// near to n*w/sum(w) as whole numbers allow and always sum to n.
func partitionSizes(n int, weights []float64) ([]int, error) {
	if err := checkWeights(weights, n); err != nil {
		return nil, err
	}
	top := 0.0
	for _, w := range weights {
		top = max(top, w)
	}
	total := 0.0
	for _, w := range weights {
		total += w / top // at most len(weights): no overflow
	}
	ideal := make([]float64, len(weights))
	sizes := make([]int, len(weights))
	sum := 0
	for i, w := range weights {
		ideal[i] = w / top / total * float64(n)
		sizes[i] = max(1, int(ideal[i]))
		sum += sizes[i]
	}
	// move one participant at a time: from the share furthest above its
	// ideal (that has more than one), or to the share furthest below it
	for ; sum != n; sum += sign(n - sum) {
		k := -1
		for i := range sizes {
			d := ideal[i] - float64(sizes[i])
			if sum > n && sizes[i] > 1 && (k < 0 || d < ideal[k]-float64(sizes[k])) ||
				sum < n && (k < 0 || d > ideal[k]-float64(sizes[k])) {
				k = i
			}
		}
		sizes[k] += sign(n - sum)
	}
	return sizes, nil
}

func sign(x int) int {
	if x < 0 {
		return -1
	}
	return 1
}
