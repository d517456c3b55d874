package kernelsrc

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFuncsMethodsAndTypes checks that Funcs names methods T.M and type
// declarations "type T", so that a kernel's hash covers the methods it
// calls and the struct types it uses.
func TestFuncsMethodsAndTypes(t *testing.T) {
	dir := t.TempDir()
	src := `package k

type vec struct{ X, Y float64 }

type (
	a int
	b [2]int
)

func (v vec) dot(w vec) float64 { return v.X*w.X + v.Y*w.Y }

func (v *vec) scale(s float64) { v.X *= s }

func f() {}
`
	if err := os.WriteFile(filepath.Join(dir, "k.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	funcs, err := Funcs(dir)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"type vec":  "vec struct{ X, Y float64 }",
		"type a":    "a int",
		"type b":    "b [2]int",
		"vec.dot":   "func (v vec) dot(w vec) float64 { return v.X*w.X + v.Y*w.Y }",
		"vec.scale": "func (v *vec) scale(s float64) { v.X *= s }",
		"f":         "func f() {}",
	} {
		if got := string(funcs[name]); got != want {
			t.Errorf("Funcs[%q] = %q, want %q", name, got, want)
		}
	}
	h1, err := Hash(funcs, []string{"f", "vec.dot", "type vec"})
	if err != nil {
		t.Fatal(err)
	}
	funcs["type vec"] = []byte("vec struct{ X, Y, Z float64 }")
	if h2, _ := Hash(funcs, []string{"f", "vec.dot", "type vec"}); h2 == h1 {
		t.Errorf("the hash did not change with the struct type")
	}
}
