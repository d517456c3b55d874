// Package gentmpl holds what the code generators of package kokkos share:
// the functions their templates call, and the writing of a formatted Go
// file.
package gentmpl

import (
	"fmt"
	"go/format"
	"log"
	"os"
	"strings"
	"text/template"
)

// Funcs are the template functions: list, from and until.
var Funcs = template.FuncMap{"list": List, "from": From, "until": Until}

// List returns f for i = 0, ..., n-1, joined by sep, with each # in f
// replaced by i.
func List(n int, f, sep string) string { return From(0, n, f, sep) }

// From is List over i = lo, ..., hi-1.
func From(lo, hi int, f, sep string) string {
	var parts []string
	for i := lo; i < hi; i++ {
		parts = append(parts, strings.ReplaceAll(f, "#", fmt.Sprint(i)))
	}
	return strings.Join(parts, sep)
}

// Until returns 0, 1, ..., n-1, for ranging over in a template.
func Until(n int) []int {
	r := make([]int, n)
	for i := range r {
		r[i] = i
	}
	return r
}

// Write formats src as Go and writes it to file. When src does not parse,
// it writes src as it is, so that the error's line numbers can be read in
// file, and exits.
func Write(file string, src []byte) {
	out, err := format.Source(src)
	if err != nil {
		os.WriteFile(file, src, 0o644)
		log.Fatalf("%s: %v", file, err)
	}
	if err := os.WriteFile(file, out, 0o644); err != nil {
		log.Fatal(err)
	}
}
