package strip

import (
	"strings"
	"testing"
)

// -order takes auto, events or fences; the cuda place's default is events
// with staged halos.
func TestUseEvents(t *testing.T) {
	for _, c := range []struct {
		space, order string
		stage, want  bool
	}{
		{"cuda", "auto", true, true},
		{"pool", "auto", true, false},
		{"pool", "events", false, true},
		{"cuda", "fences", true, false},
	} {
		if got, err := useEvents(c.space, c.order, c.stage); err != nil || got != c.want {
			t.Errorf("useEvents(%q, %q, %v) = %v, %v; want %v", c.space, c.order, c.stage, got, err, c.want)
		}
	}
	if _, err := useEvents("cuda", "streams", true); err == nil || !strings.Contains(err.Error(), `-order "streams": want auto, events or fences`) {
		t.Errorf("useEvents(-order streams): %v", err)
	}
}

// The strips of split cover 0..n once, for every part count.
func TestSplit(t *testing.T) {
	for n := 1; n < 40; n++ {
		for p := 1; p <= n; p++ {
			next := 0
			for k := range p {
				first, count := split(n, p, k)
				if first != next || count < n/p || count > n/p+1 {
					t.Fatalf("split(%d, %d, %d) = %d, %d; want first %d", n, p, k, first, count, next)
				}
				next += count
			}
			if next != n {
				t.Fatalf("split(%d, %d) covers %d points", n, p, next)
			}
		}
	}
}

// Unknown spaces and halo modes are refused with the flag's words.
func TestNewPlaceRefuses(t *testing.T) {
	for _, c := range []struct{ space, halo, order, want string }{
		{"tpu", "auto", "auto", `-space "tpu": want host, pool or cuda`},
		{"pool", "wire", "auto", `-halo "wire": want auto, device or pinned`},
		{"pool", "auto", "streams", `-order "streams": want auto, events or fences`},
	} {
		if _, _, err := newPlace(c.space, c.halo, c.order, true); err == nil || err.Error() != c.want {
			t.Errorf("newPlace(%q, %q, %q): %v, want %s", c.space, c.halo, c.order, err, c.want)
		}
	}
}
