package tools

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"
)

// strictSink is a sink that checks what the tools of kokkos-tools assume
// (see testdata/strict_tool.c) and records the calls it receives.
type strictSink struct {
	t      *testing.T
	inside atomic.Bool
	nextID uint64
	stack  []frame
	calls  map[string]int // per label, as the simple kernel timer counts
	last   string         // the kernel begun last
	log    []string
	final  bool
}

type frame struct {
	kind eventKind
	id   uint64
	name *byte
	text string
}

func newStrictSink(t *testing.T) *strictSink {
	return &strictSink{t: t, nextID: 100, calls: map[string]int{}}
}

func gostr(p *byte) string {
	if p == nil {
		return ""
	}
	n := 0
	for *(*byte)(unsafe.Add(unsafe.Pointer(p), n)) != 0 {
		n++
	}
	return string(unsafe.Slice(p, n))
}

func (s *strictSink) enter() {
	if s.inside.Swap(true) {
		s.t.Error("the sink was entered from two goroutines at once")
	}
	if s.final {
		s.t.Error("a call after finalize")
	}
	runtime.Gosched()
}

func (s *strictSink) leave() { s.inside.Store(false) }

var kindNames = []string{"for", "reduce", "scan", "fence", "copy", "push", "pop", "alloc", "dealloc"}

func (s *strictSink) begin(e *event) uint64 {
	s.enter()
	defer s.leave()
	if e.kind <= evScan {
		for _, f := range s.stack {
			if f.kind <= evScan {
				s.t.Errorf("kernel %q begun while kernel %q is open", gostr(e.name), f.text)
			}
		}
		s.last = gostr(e.name)
	}
	s.nextID++
	s.stack = append(s.stack, frame{e.kind, s.nextID, e.name, gostr(e.name)})
	s.log = append(s.log, "begin "+kindNames[e.kind]+" "+gostr(e.name))
	return s.nextID
}

func (s *strictSink) end(e *event, lid uint64) {
	s.enter()
	defer s.leave()
	s.pop(e.kind, lid)
	if e.kind <= evScan {
		s.calls[s.last]++
	}
	s.log = append(s.log, "end "+kindNames[e.kind]+" "+gostr(e.name))
}

func (s *strictSink) pop(k eventKind, lid uint64) {
	n := len(s.stack)
	if n == 0 {
		s.t.Errorf("end of a %s with no frame open", kindNames[k])
		return
	}
	f := s.stack[n-1]
	if f.kind != k || k != evCopy && k != evPush && f.id != lid {
		s.t.Errorf("expected %q (%s) to end, got %s %d", f.text, kindNames[f.kind], kindNames[k], lid)
	}
	if gostr(f.name) != f.text {
		s.t.Errorf("the name of %q changed before its end", f.text)
	}
	s.stack = s.stack[:n-1]
}

func (s *strictSink) point(e *event) {
	s.enter()
	defer s.leave()
	switch e.kind {
	case evPush:
		s.stack = append(s.stack, frame{evPush, 0, e.name, gostr(e.name)})
	case evPop:
		s.pop(evPush, 0)
	}
	s.log = append(s.log, kindNames[e.kind]+" "+gostr(e.name))
}

func (s *strictSink) finalize() {
	s.enter()
	defer s.leave()
	for _, f := range s.stack {
		s.t.Errorf("finalized with %q (%s) open", f.text, kindNames[f.kind])
	}
	s.log = append(s.log, "finalize")
	s.final = true
}

func (s *strictSink) take() []string {
	l := s.log
	s.log = nil
	return l
}

func name(s string) *byte {
	b := append([]byte(s), 0)
	return &b[0]
}

func kernel(id uint64, label string) *event {
	return &event{kind: evFor, id: id, name: name(label)}
}

// TestStreamOrder checks the stream's order on interleavings written out.
func TestStreamOrder(t *testing.T) {
	for _, c := range []struct {
		what  string
		steps func(s *stream)
		want  []string
	}{{
		"a kernel that begins while another runs begins when it ends",
		func(s *stream) {
			s.beginInterval(kernel(1, "a"))
			s.beginInterval(kernel(2, "b"))
			s.endInterval(1)
			s.endInterval(2)
		},
		[]string{"begin for a", "end for a", "begin for b", "end for b"},
	}, {
		"a kernel that ran inside another, and what came after it, follow it",
		func(s *stream) {
			s.beginInterval(kernel(1, "a"))
			s.beginInterval(kernel(2, "b"))
			s.endInterval(2)
			s.pointEvent(&event{kind: evAlloc, name: name("x")})
			s.pointEvent(&event{kind: evPush, name: name("r")})
			s.beginInterval(kernel(3, "c"))
			s.endInterval(1)
			s.pointEvent(&event{kind: evPop})
			s.endInterval(3)
		},
		[]string{"begin for a", "end for a", "begin for b", "end for b", "alloc x", "push r",
			"begin for c", "end for c", "pop "},
	}, {
		"allocations wait for the kernel running",
		func(s *stream) {
			s.beginInterval(kernel(1, "a"))
			s.pointEvent(&event{kind: evDealloc, name: name("x")})
			s.endInterval(1)
		},
		[]string{"begin for a", "end for a", "dealloc x"},
	}, {
		"regions wait for the kernel running",
		func(s *stream) {
			s.pointEvent(&event{kind: evPush, name: name("r")})
			s.beginInterval(kernel(1, "a"))
			s.pointEvent(&event{kind: evPop})
			s.pointEvent(&event{kind: evPush, name: name("q")})
			s.endInterval(1)
			s.pointEvent(&event{kind: evPop})
		},
		[]string{"push r", "begin for a", "end for a", "pop ", "push q", "pop "},
	}, {
		"EndDeepCopy ends the copy begun last",
		func(s *stream) {
			s.beginInterval(&event{kind: evCopy, name: name("c1")})
			s.beginInterval(&event{kind: evCopy, name: name("c2")})
			s.endCopy()
			s.endCopy()
			s.endCopy() // none open: dropped
		},
		[]string{"begin copy c1", "end copy c1", "begin copy c2", "end copy c2"},
	}, {
		"finalize ends what runs and what waits",
		func(s *stream) {
			s.beginInterval(kernel(1, "a"))
			s.beginInterval(&event{kind: evFence, id: 2, name: name("f")})
			s.pointEvent(&event{kind: evAlloc, name: name("x")})
			s.finalize()
			s.endInterval(1)
			s.beginInterval(kernel(3, "late"))
			s.pointEvent(&event{kind: evAlloc, name: name("late")})
		},
		[]string{"begin for a", "end for a", "begin fence f", "end fence f", "alloc x", "finalize"},
	}} {
		sink := newStrictSink(t)
		s := newStream(sink)
		c.steps(s)
		if got := sink.take(); !slices.Equal(got, c.want) {
			t.Errorf("%s: the library received\n%s\nwant\n%s", c.what, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
		}
	}
}

// TestStreamLongKernel: a kernel that stays open while more than
// maxWaiting events wait is ended in the library then, and its own end is
// dropped; the queue does not grow past maxWaiting.
func TestStreamLongKernel(t *testing.T) {
	sink := newStrictSink(t)
	s := newStream(sink)
	s.beginInterval(kernel(1, "long"))
	n := maxWaiting + 100 + rand.IntN(100)
	for i := range n {
		s.beginInterval(kernel(uint64(2+i), "short"))
		s.endInterval(uint64(2 + i))
		if len(s.queue) > maxWaiting {
			t.Fatalf("%d events wait", len(s.queue))
		}
	}
	s.endInterval(1)
	s.finalize()
	if sink.calls["long"] != 1 || sink.calls["short"] != n {
		t.Fatalf("the library counted %v, want long 1, short %d", sink.calls, n)
	}
	if got := sink.log[:4]; !slices.Equal(got, []string{"begin for long", "end for long", "begin for short", "end for short"}) {
		t.Fatalf("the library received first %q", got)
	}
}

// TestStreamConcurrent sends kernels, nested fences and copies, and
// allocations from 8 goroutines at once: the sink must receive a stream it
// accepts, every kernel counted to its label, each goroutine's kernels in
// its order.
func TestStreamConcurrent(t *testing.T) {
	sink := newStrictSink(t)
	s := newStream(sink)
	var ids atomic.Uint64
	const workers = 8
	want := map[string]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for g := range workers {
		wg.Go(func() {
			n := 200 + rand.IntN(200)
			for i := range n {
				label := fmt.Sprintf("g%d k%d", g, i)
				id := ids.Add(1)
				s.beginInterval(kernel(id, label))
				if rand.IntN(4) == 0 {
					runtime.Gosched()
				}
				s.endInterval(id)
				mu.Lock()
				want[label]++
				mu.Unlock()
				switch rand.IntN(5) {
				case 0:
					s.beginInterval(&event{kind: evCopy, name: name(fmt.Sprint("copy ", g))})
					fid := ids.Add(1)
					s.beginInterval(&event{kind: evFence, id: fid, name: name("fence")})
					s.endInterval(fid)
					s.endCopy()
				case 1:
					s.pointEvent(&event{kind: evAlloc, name: name(label)})
				}
			}
		})
	}
	wg.Wait()
	s.finalize()
	if !maps.Equal(sink.calls, want) {
		t.Errorf("the sink counted %d labels, want %d, or counts differ", len(sink.calls), len(want))
	}
	// Each goroutine's kernels reach the sink in the order it ran them.
	last := map[string]int{}
	for _, l := range sink.log {
		var g, k int
		if n, _ := fmt.Sscanf(l, "begin for g%d k%d", &g, &k); n == 2 {
			key := fmt.Sprint(g)
			if prev, ok := last[key]; ok && k != prev+1 {
				t.Fatalf("goroutine %d: kernel %d after %d", g, k, prev)
			}
			last[key] = k
		}
	}
}
