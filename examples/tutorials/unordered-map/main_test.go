package main

import (
	"bytes"
	"errors"
	"math/bits"
	"strings"
	"testing"
)

// TestGlobalID checks globalID against the exercise's shifts and masks,
// written out.
func TestGlobalID(t *testing.T) {
	for _, i := range []int{0, 1, 255, 256, 123456789, 1<<31 - 1} {
		const b = uint64(0xFF)
		tmp := uint64(int64(^int32(i)))
		want := (tmp&(b<<0))<<56 | (tmp&(b<<8))<<40 | (tmp&(b<<16))<<24 | (tmp&(b<<24))<<8 |
			(tmp&(b<<32))>>8 | (tmp&(b<<40))>>24 | (tmp&(b<<48))>>40 | (tmp&(b<<56))>>56
		if got := globalID(i); got != want || bits.ReverseBytes64(got) != tmp {
			t.Errorf("globalID(%d) = %#x, want %#x", i, got, want)
		}
	}
}

func TestRun(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, 50000, 50000, 3); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "Time Insert: 50000 58368 ") || !strings.HasPrefix(lines[1], "Time Find: 50000 58368 ") ||
		!strings.HasPrefix(lines[2], `{"name":"unordered-map.insert","unit":"s","value":`) || !strings.HasPrefix(lines[3], `{"name":"unordered-map.find"`) {
		t.Fatalf("output:\n%s", out.String())
	}
}

// TestRunOverCapacity gives the map room for half the ids: the exercise's
// capacity message.
func TestRunOverCapacity(t *testing.T) {
	var out bytes.Buffer
	err := run(&out, 20000, 10000, 1)
	if !errors.Is(err, errCapacity) {
		t.Fatalf("run over capacity: %v", err)
	}
}
