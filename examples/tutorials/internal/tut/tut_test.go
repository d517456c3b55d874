package tut

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestFill completes sizes as the exercises' checkSizes does.
func TestFill(t *testing.T) {
	for _, c := range []struct {
		in       Sizes
		defS, dE int
		want     Sizes
		err      string
	}{
		{Sizes{-1, -1, -1, -1}, 1 << 22, 0, Sizes{4096, 1024, 1 << 22, 0}, ""},
		{Sizes{256, -1, -1, -1}, 1 << 22, 0, Sizes{256, 16384, 1 << 22, 0}, ""},
		{Sizes{-1, 64, -1, -1}, 1 << 22, 0, Sizes{65536, 64, 1 << 22, 0}, ""},
		{Sizes{8, 4, -1, -1}, 1 << 22, 0, Sizes{8, 4, 32, 0}, ""},
		{Sizes{-1, -1, 512, -1}, 1 << 18, 1024, Sizes{1, 512, 512, 1024}, ""},
		{Sizes{-1, -1, -1, 64}, 1 << 18, 1024, Sizes{256, 1024, 1 << 18, 64}, ""},
		{Sizes{8, 4, 64, -1}, 1 << 22, 0, Sizes{}, "N * M != S (8 * 4 != 64)"},
	} {
		s := c.in
		err := s.Fill(c.defS, c.dE)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%+v: error %v, want one containing %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || s != c.want {
			t.Errorf("%+v: %+v, %v; want %+v", c.in, s, err, c.want)
		}
	}
}

// TestEmit writes one JSON object on a line.
func TestEmit(t *testing.T) {
	var b bytes.Buffer
	Emit(&b, "yax", "s", 0.25)
	var v struct {
		Name, Unit string
		Value      float64
	}
	if err := json.Unmarshal(b.Bytes(), &v); err != nil || v.Name != "yax" || v.Unit != "s" || v.Value != 0.25 || !strings.HasSuffix(b.String(), "}\n") {
		t.Errorf("Emit wrote %q (%+v, %v)", b.String(), v, err)
	}
	if Pow2(10) != 1024 || Pow2(-1) != -1 {
		t.Errorf("Pow2(10) = %d, Pow2(-1) = %d", Pow2(10), Pow2(-1))
	}
}
