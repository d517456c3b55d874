package main

import (
	"strings"
	"testing"
)

// tokenSrc has kernels that use a token parameter every way the subset
// allows.
const tokenSrc = cudaHeader + `
//kokkos:kernel
func Hist(i int, tok kokkos.UniqueToken, bins kokkos.View2[int64], x kokkos.View1[int32]) {
	id := tok.Acquire()
	if id < tok.Size() {
		bins.Set(id, int(x.At(i))%bins.Extent(1), bins.At(id, int(x.At(i))%bins.Extent(1))+1)
	}
	tok.Release(id)
}

//kokkos:kernel
func Ids(i int, a kokkos.View1[int64], tok kokkos.UniqueToken, acc *int64) {
	id := tok.Acquire()
	defer0 := int64(id)
	tok.Release(id)
	*acc += defer0 + a.At(i)
}

//kokkos:kernel
func Unused(i int, _ kokkos.UniqueToken, a kokkos.View1[float64]) { a.Set(i, 1) }
`

func TestTokenAllowed(t *testing.T) {
	p, err := loadSource(".", map[string]string{"k.go": tokenSrc})
	if err != nil {
		t.Fatal(err)
	}
	_, irs := describeAll(t, p, true)
	for name, want := range map[string]string{
		"Hist": "(kernel Hist for (index i) (token tok) (view bins int64 2 w) (view x int32 1 r) (body " +
			"(assign ((new id int)) ((acquire tok))) " +
			"(if (lt int id (tokensize tok)) (then (assign ((at bins id (rem int (conv int (at x i)) (extent bins 1)))) ((add int64 (at bins id (rem int (conv int (at x i)) (extent bins 1))) (int64 1)))))) " +
			"(do (release tok id))))",
		"Ids": "(kernel Ids reduce (index i) (view a int64 1 r) (token tok) (acc int64) (body " +
			"(assign ((new id int)) ((acquire tok))) (assign ((new defer0 int64)) ((conv int64 id))) (do (release tok id)) " +
			"(opassign add (acc) (add int64 defer0 (at a i)))))",
		"Unused": "(kernel Unused for (index i) (token _) (view a float64 1 w) (body (assign ((at a i)) ((float64 1)))))",
	} {
		if got := strings.TrimPrefix(squash(irs[name]), "kernelir 1 "); got != want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
	out := generateSource(t, map[string]string{"k.go": tokenSrc})
	for _, want := range []string{
		"tok := gkArgs[0].(gkkokkos.UniqueToken)",
		"tok := gkArgs[1].(gkkokkos.UniqueToken)",
		"id := tok.Acquire()",
		"tok.Release(id)",
		`Params: []gkkernel.Param{
			{Name: "tok"},`,
	} {
		if !strings.Contains(squashSpace(out), squashSpace(want)) {
			t.Errorf("the generated file lacks %q:\n%s", want, out)
		}
	}
}

func squashSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestTokenRefused checks the refusal of everything but the three methods
// done with a token, with its text and position.
func TestTokenRefused(t *testing.T) {
	src := cudaHeader + `
//kokkos:kernel
func Bad(i int, tok kokkos.UniqueToken, a kokkos.View1[int64]) {
	t2 := tok
	_ = tok.Space()
	f := tok.Acquire
	var z kokkos.UniqueToken
	tok = z
	a.Set(i, int64(t2.Size()+f()))
}
`
	p, err := loadSource(".", map[string]string{"k.go": src})
	if err != nil {
		t.Fatal(err)
	}
	err = p.checkBodies()
	if err == nil {
		t.Fatal("no refusals")
	}
	var got []string
	for _, l := range strings.Split(err.Error(), "\n") {
		got = append(got, l[strings.Index(l, "/k.go:")+1:])
	}
	want := []string{
		"k.go:14:8: kernel Bad: the token tok as a value is not allowed in a kernel (call its Acquire, Release or Size)",
		"k.go:15:6: kernel Bad: a call of tok.Space is not allowed in a kernel (call only Acquire, Release and Size)",
		"k.go:16:7: kernel Bad: the method value tok.Acquire is not allowed in a kernel (call it)",
		"k.go:17:8: kernel Bad: a token value is not allowed in a kernel (take the token as a kernel parameter and call its Acquire, Release or Size)",
		"k.go:18:2: kernel Bad: an assignment to parameter tok is not allowed in a kernel (copy it to a local)",
		"k.go:19:17: kernel Bad: a call of t2.Size is not allowed in a kernel (call only helpers, math functions, kokkos atomics, min and max)",
		"k.go:19:27: kernel Bad: a call of f is not allowed in a kernel (call only helpers, math functions, kokkos atomics, min and max)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	// A helper takes scalars only.
	_, err = loadSource(".", map[string]string{"k.go": cudaHeader + `
//kokkos:kernel
func h(tok kokkos.UniqueToken) int { return 0 }
`})
	if err == nil || !strings.Contains(err.Error(), "helper parameter tok has type github.com/gokkos/kokkos.UniqueToken; a helper takes scalars") {
		t.Errorf("a helper of a token: %v", err)
	}
}
