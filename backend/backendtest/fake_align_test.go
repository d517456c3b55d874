package backendtest

import "testing"

// TestFakeAligned: every block of a fake device, of any size, starts at a
// multiple of 64 bytes, as a device allocator's blocks do.
func TestFakeAligned(t *testing.T) {
	for _, host := range []bool{false, true} {
		f := FakeDevice(host)
		for n := range 40 {
			b, err := f.Allocate("a", n, n%2 == 0)
			if err != nil {
				t.Fatal(err)
			}
			if b.Addr%fakeAlign != 0 {
				t.Errorf("block of %d bytes at %#x, not aligned to %d", n, b.Addr, fakeAlign)
			}
			if err := b.Free(); err != nil {
				t.Fatal(err)
			}
		}
	}
}
