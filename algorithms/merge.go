package algorithms

// minMergeChunk is the fewest elements a worker of the merge sort takes.
const minMergeChunk = 1 << 12

// insertionRun is the length of the runs the merge sort starts from,
// each sorted by insertion.
const insertionRun = 24

// mergeSort sorts s by less, stably: each of the pool's workers sorts a
// chunk (mergeSortSerial), then rounds merge pairs of runs, each merge
// split between workers at the positions of the output the merge path
// gives, so that every round keeps all workers busy.
func mergeSort[T any](pool *hostPool, s []T, less func(a, b T) bool) error {
	n := len(s)
	if n < 2 {
		return nil
	}
	buf := make([]T, n)
	p := max(1, min(pool.workers(), n/minMergeChunk))
	bound := func(c int) int { return c * n / p }
	if err := pool.each("algorithms.merge.chunks", p, func(c int) {
		lo, hi := bound(c), bound(c+1)
		mergeSortSerial(s[lo:hi], buf[lo:hi], less)
	}); err != nil {
		return err
	}
	runs := make([]int, p+1) // run r is [runs[r], runs[r+1])
	for c := range runs {
		runs[c] = bound(c)
	}
	src, dst := s, buf
	for len(runs) > 2 {
		type piece struct{ a0, a1, b0, b1, out int }
		var pieces []piece
		var next []int
		for r := 0; r+1 < len(runs); r += 2 {
			next = append(next, runs[r])
			if r+2 >= len(runs) { // an odd run out: copied as it is
				pieces = append(pieces, piece{runs[r], runs[r+1], runs[r+1], runs[r+1], runs[r]})
				continue
			}
			a0, a1, b1 := runs[r], runs[r+1], runs[r+2]
			a, b := src[a0:a1], src[a1:b1]
			k := max(1, (b1-a0)*p/n)
			prevI, prevJ := 0, 0
			for q := 1; q <= k; q++ {
				out := (b1 - a0) * q / k
				i := coRank(out, a, b, less)
				pieces = append(pieces, piece{a0 + prevI, a0 + i, a1 + prevJ, a1 + out - i, a0 + prevI + prevJ})
				prevI, prevJ = i, out-i
			}
		}
		next = append(next, n)
		if err := pool.each("algorithms.merge.round", len(pieces), func(c int) {
			pc := pieces[c]
			merge(dst[pc.out:pc.out+(pc.a1-pc.a0)+(pc.b1-pc.b0)], src[pc.a0:pc.a1], src[pc.b0:pc.b1], less)
		}); err != nil {
			return err
		}
		runs = next
		src, dst = dst, src
	}
	if &src[0] != &s[0] {
		return pool.each("algorithms.merge.copy", p, func(c int) {
			copy(s[bound(c):bound(c+1)], src[bound(c):bound(c+1)])
		})
	}
	return nil
}

// coRank returns how many of the first k elements of the stable merge of
// a and b come from a: the least i such that a[i] goes after b[k-i-1],
// an element of a going first among equal ones.
func coRank[T any](k int, a, b []T, less func(a, b T) bool) int {
	lo, hi := max(0, k-len(b)), min(k, len(a))
	for lo < hi {
		i := int(uint(lo+hi) >> 1)
		if !less(b[k-i-1], a[i]) {
			lo = i + 1
		} else {
			hi = i
		}
	}
	return lo
}

// merge writes the stable merge of a and b into dst (len(a)+len(b)).
func merge[T any](dst, a, b []T, less func(a, b T) bool) {
	i, j, k := 0, 0, 0
	for i < len(a) && j < len(b) {
		if less(b[j], a[i]) {
			dst[k] = b[j]
			j++
		} else {
			dst[k] = a[i]
			i++
		}
		k++
	}
	k += copy(dst[k:], a[i:])
	copy(dst[k:], b[j:])
}

// mergeSortSerial sorts s by less, stably, with buf (as long as s) for
// the merges: runs of insertionRun sorted by insertion, then merged
// bottom-up between s and buf.
func mergeSortSerial[T any](s, buf []T, less func(a, b T) bool) {
	n := len(s)
	for lo := 0; lo < n; lo += insertionRun {
		r := s[lo:min(lo+insertionRun, n)]
		for i := 1; i < len(r); i++ {
			x := r[i]
			j := i
			for j > 0 && less(x, r[j-1]) {
				r[j] = r[j-1]
				j--
			}
			r[j] = x
		}
	}
	src, dst := s, buf
	for w := insertionRun; w < n; w *= 2 {
		for lo := 0; lo < n; lo += 2 * w {
			mid, hi := min(lo+w, n), min(lo+2*w, n)
			merge(dst[lo:hi], src[lo:mid], src[mid:hi], less)
		}
		src, dst = dst, src
	}
	if n > 0 && &src[0] != &s[0] {
		copy(s, src)
	}
}
