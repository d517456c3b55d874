package main

import (
	"fmt"
	"go/ast"
	"strings"
)

// In the host kernel, each chunk (or tile) function takes one accessor
// of each ScatterView parameter the body accesses, gkSA_<name> :=
// sv.Access(), before its loops, and gives it back when it returns
// (defer gkSA_<name>.Release()): a duplicated ScatterView's chunk holds
// one id of its token and updates that id's copy with plain loads and
// stores. Each sv.Access() of the body becomes gkSA_<name>, so that the
// body's a := sv.Access() copies the chunk's accessor.

// scatterEdit returns the edit that makes n, sv.Access() of a ScatterView
// parameter, the chunk's accessor.
func (p *pkgInfo) scatterEdit(k *kernelFunc, n *ast.CallExpr) (edit, bool) {
	pr, m, ok := p.isScatterMethod(k, n)
	if !ok || m != "Access" {
		return edit{}, false
	}
	return edit{pos: n.Pos(), end: n.End(), text: "gkSA_" + pr.name}, true
}

// scatterPrologue returns the declarations of the accessors that body,
// a chunk function's text, uses.
func (p *pkgInfo) scatterPrologue(k *kernelFunc, body string) string {
	names := idents(body)
	var b strings.Builder
	for _, pr := range k.params {
		if pr.scatter != nil && names["gkSA_"+pr.name] {
			fmt.Fprintf(&b, "gkSA_%s := %s.Access()\ndefer gkSA_%s.Release()\n", pr.name, pr.name, pr.name)
		}
	}
	return b.String()
}
