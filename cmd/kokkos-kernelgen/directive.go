package main

import (
	"go/ast"

	"github.com/gokkos/kokkos/internal/kernelsrc"
)

// The directive may take arguments after a space: //kokkos:kernel nocheck.
// They are nocheck, which waives the host code's bounds checks (see
// emitHost), and fastmath, which lets the host's vectorized loops add
// floats in another order (host_simd.go); any other is refused at its
// position.

// directiveArgs returns the arguments of fd's directive, and the comment
// that holds it, or nil when fd is not marked.
func directiveArgs(fd *ast.FuncDecl) ([]string, *ast.Comment) {
	return kernelsrc.Directive(fd.Doc)
}

// parseDirective sets k's options from the arguments of its directive.
func (p *pkgInfo) parseDirective(k *kernelFunc) error {
	args, c := directiveArgs(k.decl)
	for _, a := range args {
		switch a {
		case "nocheck":
			if k.helper {
				return p.errorf(c.Pos(), k.name, "nocheck applies to kernels, and %s is a helper (it has results, or no leading int index)", k.name)
			}
			k.nocheck = true
		case "fastmath":
			if k.helper {
				return p.errorf(c.Pos(), k.name, "fastmath applies to kernels, and %s is a helper (it has results, or no leading int index)", k.name)
			}
			k.fastmath = true
		default:
			return p.errorf(c.Pos(), k.name, "unknown argument %q of %s (they are nocheck, which waives the host's bounds checks, and fastmath, which lets the host's vector sums add floats in any order)", a, directive)
		}
	}
	return nil
}
