package sched

import (
	"runtime"
	"sync"
	"weak"

	"github.com/gokkos/kokkos/internal/prof"
)

// executeProfiled runs d as Execute does, between the kernel's begin and
// end events, with its bodies labelled for pprof and runtime/trace when
// prof.Labels is on.
func executeProfiled(d *Dispatch, p *Pool, owner *Queue) error {
	dd := *d
	dd.profiled = true
	if prof.Labels() {
		ctx := prof.KernelContext(d.Label)
		if dd.Index != nil {
			index := dd.Index
			dd.Index, dd.Body = nil, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					index(i)
				}
			}
		}
		dd.Body = prof.Labelled(ctx, d.Label, dd.Body)
	}
	kind := prof.For
	switch d.Kind {
	case KindReduce:
		kind = prof.Reduce
	case KindScan:
		kind = prof.Scan
	}
	id := prof.BeginKernel(kind, d.Label, deviceID(p, owner))
	err := Execute(&dd, p, owner)
	prof.EndKernel(kind, id)
	return err
}

// instances numbers the pools and queues that have run profiled work, in
// the order they first did, for the instance bits of Kokkos's device id.
var instances struct {
	sync.Mutex
	ids  map[any]int
	next int
}

// deviceID is the Kokkos device id of the instance that runs work on p
// for owner: Serial when p is nil, Threads otherwise, numbered by pool
// (the synchronous instance) or by queue (an asynchronous one).
func deviceID(p *Pool, owner *Queue) uint32 {
	if p == nil {
		return prof.DeviceID(prof.DevSerial, 0, 0)
	}
	var key any = weak.Make(p)
	if owner != nil {
		key = weak.Make(owner)
	}
	instances.Lock()
	defer instances.Unlock()
	id, ok := instances.ids[key]
	if !ok {
		if instances.ids == nil {
			instances.ids = map[any]int{}
		}
		id = instances.next
		instances.next++
		instances.ids[key] = id
		if owner != nil {
			runtime.AddCleanup(owner, forget, key)
		} else {
			runtime.AddCleanup(p, forget, key)
		}
	}
	return prof.DeviceID(prof.DevThreads, 0, id)
}

// forget drops the number of an instance that is gone.
func forget(key any) {
	instances.Lock()
	delete(instances.ids, key)
	instances.Unlock()
}

// DeviceID returns the Kokkos device id of q's instance, as its kernels
// report it.
func (q *Queue) DeviceID() uint32 { return deviceID(q.pool, q) }
