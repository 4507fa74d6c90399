// Package memtest measures the heap a piece of code needs, for the memory
// benchmarks of the syntaxes.
package memtest

import (
	"runtime"
	"runtime/metrics"
	"sync"
	"time"
)

// PeakHeap runs f and returns the most heap in use while it ran, above what
// was in use before, sampled every 100µs, and what f allocated in all.
// Garbage not yet collected counts as in use, as it does for the process.
func PeakHeap(f func()) (peak, total uint64) {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base, alloc := read(), ms.TotalAlloc
	var (
		wg   sync.WaitGroup
		hi   uint64
		stop = make(chan struct{})
	)
	wg.Go(func() {
		t := time.NewTicker(100 * time.Microsecond)
		defer t.Stop()
		for {
			if v := read(); v > hi {
				hi = v
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	})
	f()
	close(stop)
	wg.Wait()
	if v := read(); v > hi {
		hi = v
	}
	runtime.ReadMemStats(&ms)
	if hi < base {
		return 0, ms.TotalAlloc - alloc
	}
	return hi - base, ms.TotalAlloc - alloc
}
