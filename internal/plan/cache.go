package plan

import (
	"os"
	"strconv"
	"strings"
	"sync"
)

// minStreamFillBytes is the least size from which a fill streams, whatever
// the caches (Go's clear streams from 32 MiB).
const minStreamFillBytes = 32 << 20

// StreamFillBytes returns the size from which a fill streams its
// contiguous runs with non-temporal stores: three quarters of the
// machine's last-level caches, as glibc's memset decides, and at least
// 32 MiB. A smaller fill leaves its memory in the caches for the code
// that reads it next; a larger one would only flush them.
func StreamFillBytes() int { return streamFillBytes() }

var streamFillBytes = sync.OnceValue(func() int {
	return max(minStreamFillBytes, lastLevelCacheBytes("/sys/devices/system/cpu/")/4*3)
})

// lastLevelCacheBytes returns the total size of the highest-level data or
// unified caches of the online CPUs, each shared cache counted once, as
// Linux describes them under root (/sys/devices/system/cpu/); 0 where it
// cannot tell.
func lastLevelCacheBytes(root string) int {
	cpus, err := os.ReadDir(root)
	if err != nil {
		return 0
	}
	read := func(p string) string {
		b, _ := os.ReadFile(p)
		return strings.TrimSpace(string(b))
	}
	bestLevel, total := 0, 0
	seen := map[string]bool{}
	for _, c := range cpus {
		name := c.Name()
		if !strings.HasPrefix(name, "cpu") || strings.TrimLeft(name[3:], "0123456789") != "" || len(name) == 3 {
			continue
		}
		idx, err := os.ReadDir(root + name + "/cache")
		if err != nil {
			continue
		}
		for _, ix := range idx {
			dir := root + name + "/cache/" + ix.Name() + "/"
			if !strings.HasPrefix(ix.Name(), "index") || read(dir+"type") == "Instruction" {
				continue
			}
			level, err := strconv.Atoi(read(dir + "level"))
			if err != nil || level < bestLevel {
				continue
			}
			size := parseCacheSize(read(dir + "size"))
			if size <= 0 {
				continue
			}
			if level > bestLevel {
				bestLevel, total = level, 0
				clear(seen)
			}
			key := read(dir + "shared_cpu_list")
			if key == "" {
				key = name
			}
			if !seen[key] {
				seen[key] = true
				total += size
			}
		}
	}
	return total
}

// parseCacheSize reads a sysfs cache size such as "32768K" or "2M".
func parseCacheSize(s string) int {
	mul := 1
	switch {
	case strings.HasSuffix(s, "K"):
		mul, s = 1<<10, s[:len(s)-1]
	case strings.HasSuffix(s, "M"):
		mul, s = 1<<20, s[:len(s)-1]
	case strings.HasSuffix(s, "G"):
		mul, s = 1<<30, s[:len(s)-1]
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0
	}
	return n * mul
}
