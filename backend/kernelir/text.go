package kernelir

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Header is the first line of a description of this version.
var Header = "kernelir " + strconv.Itoa(Version) + "\n"

// PrintHelpers returns the text of helpers alone, after the version line:
// what a generated file keeps once and places before each kernel's text.
func PrintHelpers(helpers []*Func) string {
	var p printer
	p.b.WriteString(Header)
	var ts []Type
	for _, f := range helpers {
		ts = append(ts, funcTypes(f)...)
	}
	p.structDecls(ts)
	for _, f := range helpers {
		p.fn(f)
	}
	return p.b.String()
}

// PrintKernel returns the text of k without its helpers and without the
// version line: PrintHelpers(k.Helpers) + PrintKernel(k) is Print(k).
func PrintKernel(k *Kernel) string {
	var p printer
	p.structDecls(kernelTypes(k))
	p.kernel(k)
	return p.b.String()
}

// Print returns the text of k and its helpers.
func Print(k *Kernel) string { return PrintHelpers(k.Helpers) + PrintKernel(k) }

type printer struct {
	b     strings.Builder
	depth int
}

func (p *printer) nl() {
	p.b.WriteByte('\n')
	for range p.depth {
		p.b.WriteString("  ")
	}
}

func (p *printer) fn(f *Func) {
	p.b.WriteString("(func " + f.Name + " (")
	p.vars(f.Params)
	p.b.WriteString(") (")
	for n, r := range f.Results {
		if n > 0 {
			p.b.WriteByte(' ')
		}
		if r.Name == "" {
			p.b.WriteString(r.Type.String())
		} else {
			p.b.WriteString("(" + r.Name + " " + r.Type.String() + ")")
		}
	}
	p.b.WriteString(")")
	p.body(f.Body)
	p.b.WriteString(")\n")
}

func (p *printer) vars(vs []Var) {
	for n, v := range vs {
		if n > 0 {
			p.b.WriteByte(' ')
		}
		p.b.WriteString("(" + v.Name + " " + v.Type.String() + ")")
	}
}

func (p *printer) kernel(k *Kernel) {
	if k.Team != "" {
		fmt.Fprintf(&p.b, "(kernel %s %s (team %s)", k.Name, k.Pattern, k.Team)
	} else {
		fmt.Fprintf(&p.b, "(kernel %s %s (index %s)", k.Name, k.Pattern, strings.Join(k.Index, " "))
	}
	p.depth++
	for _, pr := range k.Params {
		p.nl()
		if pr.Token {
			fmt.Fprintf(&p.b, "(token %s)", pr.Name)
		} else if pr.UMap {
			p.b.WriteString(umapParamText(pr))
		} else if pr.IsView() {
			w := "r"
			if pr.Write {
				w = "w"
			}
			fmt.Fprintf(&p.b, "(view %s %s %d %s)", pr.Name, pr.Type, pr.Rank, w)
		} else {
			fmt.Fprintf(&p.b, "(scalar %s %s)", pr.Name, pr.Type)
		}
	}
	if k.Acc != Invalid {
		p.nl()
		fmt.Fprintf(&p.b, "(acc %s)", k.Acc)
	}
	if k.Final != "" {
		p.nl()
		fmt.Fprintf(&p.b, "(final %s)", k.Final)
	}
	p.depth--
	p.body(k.Body)
	p.b.WriteString(")\n")
}

// body writes (body stmts...) on a new line.
func (p *printer) body(list []Stmt) {
	p.depth++
	p.nl()
	p.list("body", list)
	p.depth--
}

// list writes (head stmts...), each statement on its own line.
func (p *printer) list(head string, list []Stmt) {
	p.b.WriteString("(" + head)
	p.depth++
	for _, s := range list {
		p.nl()
		p.stmt(s)
	}
	p.depth--
	p.b.WriteString(")")
}

func (p *printer) stmt(s Stmt) {
	switch s := s.(type) {
	case *VarDecl:
		p.b.WriteString("(var (")
		p.vars(s.Vars)
		p.b.WriteString(") (")
		p.exprs(s.Values)
		p.b.WriteString("))")
	case *Assign:
		p.b.WriteString("(assign (")
		for n, t := range s.Targets {
			if n > 0 {
				p.b.WriteByte(' ')
			}
			p.target(t)
		}
		p.b.WriteString(") (")
		p.exprs(s.Values)
		p.b.WriteString("))")
	case *OpAssign:
		p.b.WriteString("(opassign " + s.Op + " ")
		p.target(s.Target)
		p.b.WriteByte(' ')
		p.expr(s.Value)
		p.b.WriteString(")")
	case *IncDec:
		if s.Dec {
			p.b.WriteString("(dec ")
		} else {
			p.b.WriteString("(inc ")
		}
		p.target(s.Target)
		p.b.WriteString(")")
	case *ExprStmt:
		p.b.WriteString("(do ")
		p.expr(s.X)
		p.b.WriteString(")")
	case *If:
		p.b.WriteString("(if")
		p.init(s.Init)
		p.b.WriteByte(' ')
		p.expr(s.Cond)
		p.depth++
		p.nl()
		p.list("then", s.Then)
		if s.Else != nil {
			p.nl()
			p.b.WriteString("(else ")
			p.stmt(s.Else)
			p.b.WriteString(")")
		}
		p.depth--
		p.b.WriteString(")")
	case *For:
		p.b.WriteString("(for")
		p.init(s.Init)
		if s.Cond != nil {
			p.b.WriteString(" (cond ")
			p.expr(s.Cond)
			p.b.WriteString(")")
		}
		if s.Post != nil {
			p.b.WriteString(" (post ")
			p.stmt(s.Post)
			p.b.WriteString(")")
		}
		p.body(s.Body)
		p.b.WriteString(")")
	case *Range:
		p.b.WriteString("(range ")
		p.target(s.Key)
		p.b.WriteString(" " + s.T.String() + " ")
		p.expr(s.N)
		p.body(s.Body)
		p.b.WriteString(")")
	case *Switch:
		p.b.WriteString("(switch")
		p.init(s.Init)
		if s.Tag != nil {
			p.b.WriteString(" (tag ")
			p.expr(s.Tag)
			p.b.WriteString(")")
		}
		p.depth++
		for _, c := range s.Cases {
			p.nl()
			if c.Default {
				p.list("default", c.Body)
				continue
			}
			p.b.WriteString("(case (")
			p.exprs(c.Values)
			p.b.WriteString(")")
			p.depth++
			for _, s := range c.Body {
				p.nl()
				p.stmt(s)
			}
			p.depth--
			p.b.WriteString(")")
		}
		p.depth--
		p.b.WriteString(")")
	case *Break:
		p.b.WriteString("(break)")
	case *Continue:
		p.b.WriteString("(continue)")
	case *Return:
		p.b.WriteString("(return")
		for _, v := range s.Values {
			p.b.WriteByte(' ')
			p.expr(v)
		}
		p.b.WriteString(")")
	case *Block:
		p.list("block", s.Body)
	default:
		if !p.teamStmt(s) {
			panic(fmt.Sprintf("kernelir: Print of %T", s))
		}
	}
}

func (p *printer) init(s Stmt) {
	if s != nil {
		p.b.WriteString(" (init ")
		p.stmt(s)
		p.b.WriteString(")")
	}
}

func (p *printer) target(t Target) {
	switch t.Kind {
	case TargetVar:
		p.b.WriteString(t.Name)
	case TargetNew:
		p.b.WriteString("(new " + t.Name + " " + t.T.String() + ")")
	case TargetElem:
		p.b.WriteString("(at " + t.Name)
		for _, x := range t.Index {
			p.b.WriteByte(' ')
			p.expr(x)
		}
		p.b.WriteString(")")
	case TargetAcc:
		p.b.WriteString("(acc)")
	case TargetBlank:
		p.b.WriteString("_")
	case TargetPart:
		p.partTarget(t)
	}
}

func (p *printer) exprs(list []Expr) {
	for n, x := range list {
		if n > 0 {
			p.b.WriteByte(' ')
		}
		p.expr(x)
	}
}

func (p *printer) expr(x Expr) {
	switch x := x.(type) {
	case *Const:
		p.b.WriteString("(" + x.T.String() + " " + constText(x) + ")")
	case *Ref:
		p.b.WriteString(x.Name)
	case *Unary:
		if x.Op == "not" {
			p.b.WriteString("(not ")
		} else {
			p.b.WriteString("(" + x.Op + " " + x.T.String() + " ")
		}
		p.expr(x.X)
		p.b.WriteString(")")
	case *Binary:
		if x.Op == "land" || x.Op == "lor" {
			p.b.WriteString("(" + x.Op + " ")
		} else {
			p.b.WriteString("(" + x.Op + " " + x.T.String() + " ")
		}
		p.expr(x.X)
		p.b.WriteByte(' ')
		p.expr(x.Y)
		p.b.WriteString(")")
	case *Convert:
		p.b.WriteString("(conv " + x.T.String() + " ")
		p.expr(x.X)
		p.b.WriteString(")")
	case *At:
		p.b.WriteString("(at " + x.View)
		for _, i := range x.Index {
			p.b.WriteByte(' ')
			p.expr(i)
		}
		p.b.WriteString(")")
	case *Extent:
		fmt.Fprintf(&p.b, "(extent %s %d)", x.View, x.Dim)
	case *AccRead:
		p.b.WriteString("(acc)")
	case *Call:
		p.b.WriteString("(call " + x.Func)
		for _, a := range x.Args {
			p.b.WriteByte(' ')
			p.expr(a)
		}
		p.b.WriteString(")")
	case *Math:
		p.b.WriteString("(math " + x.Func)
		for _, a := range x.Args {
			p.b.WriteByte(' ')
			p.expr(a)
		}
		p.b.WriteString(")")
	case *MinMax:
		op := "min"
		if x.Max {
			op = "max"
		}
		p.b.WriteString("(" + op + " " + x.T.String())
		for _, a := range x.Args {
			p.b.WriteByte(' ')
			p.expr(a)
		}
		p.b.WriteString(")")
	case *Atomic:
		p.b.WriteString("(atomic " + x.Op + " " + x.View + " (")
		p.exprs(x.Index)
		p.b.WriteString(")")
		for _, a := range x.Args {
			p.b.WriteByte(' ')
			p.expr(a)
		}
		p.b.WriteString(")")
	case *TeamQuery:
		p.b.WriteString("(team " + x.Q + ")")
	default:
		if p.printToken(x) || p.printUMap(x) {
			return
		}
		if p.localExpr(x) {
			return
		}
		panic(fmt.Sprintf("kernelir: Print of %T", x))
	}
}

// constText is the literal of c: a decimal integer, a float in the
// shortest form that reads back to its value, true or false.
func constText(c *Const) string {
	switch {
	case c.T == Bool:
		return strconv.FormatBool(c.Bits != 0)
	case c.T.IsSigned():
		return strconv.FormatInt(int64(c.Bits), 10)
	case c.T.IsUnsigned():
		return strconv.FormatUint(c.Bits, 10)
	case c.T == Float32:
		return strconv.FormatFloat(math.Float64frombits(c.Bits), 'g', -1, 32)
	}
	return strconv.FormatFloat(math.Float64frombits(c.Bits), 'g', -1, 64)
}

// Parsing.

// sx is a parsed S-expression: an atom, or a list.
type sx struct {
	atom string
	list []*sx
	isL  bool
	pos  int // byte offset in the text
}

func (s *sx) String() string {
	if !s.isL {
		return s.atom
	}
	parts := make([]string, len(s.list))
	for n, e := range s.list {
		parts[n] = e.String()
	}
	return "(" + strings.Join(parts, " ") + ")"
}

// maxDepth bounds the nesting of a description, so that Parse of any
// bytes returns.
const maxDepth = 200

// readSx reads the S-expressions of text.
func readSx(text string, off int) ([]*sx, error) {
	var stack [][]*sx
	var cur []*sx
	var starts []int
	i := 0
	for i < len(text) {
		c := text[i]
		switch {
		case c == ' ' || c == '\n' || c == '\t' || c == '\r':
			i++
		case c == '(':
			if len(stack) >= maxDepth {
				return nil, fmt.Errorf("%w: nested deeper than %d at byte %d", ErrSyntax, maxDepth, off+i)
			}
			stack = append(stack, cur)
			starts = append(starts, i)
			cur = nil
			i++
		case c == ')':
			if len(stack) == 0 {
				return nil, fmt.Errorf("%w: unmatched ) at byte %d", ErrSyntax, off+i)
			}
			l := &sx{list: cur, isL: true, pos: off + starts[len(starts)-1]}
			cur = append(stack[len(stack)-1], l)
			stack, starts = stack[:len(stack)-1], starts[:len(starts)-1]
			i++
		default:
			j := i
			for j < len(text) && !strings.ContainsRune(" \n\t\r()", rune(text[j])) {
				j++
			}
			cur = append(cur, &sx{atom: text[i:j], pos: off + i})
			i = j
		}
	}
	if len(stack) > 0 {
		return nil, fmt.Errorf("%w: unclosed ( at byte %d", ErrSyntax, off+starts[len(starts)-1])
	}
	return cur, nil
}

// Parse reads a description: the version line, helpers, and exactly one
// kernel; it validates the result (Validate). Errors wrap ErrSyntax,
// ErrVersion or ErrInvalid.
func Parse(text string) (*Kernel, error) {
	line, rest, ok := strings.Cut(text, "\n")
	if !ok {
		line, rest = text, ""
	}
	line = strings.TrimSpace(line)
	if v, found := strings.CutPrefix(line, "kernelir "); !found {
		return nil, fmt.Errorf("%w: the text does not start with the line \"kernelir %d\"", ErrSyntax, Version)
	} else if v != strconv.Itoa(Version) {
		return nil, fmt.Errorf("%w: the description is of version %q, this program reads version %d: run go generate to write it again", ErrVersion, v, Version)
	}
	items, err := readSx(rest, len(line)+1)
	if err != nil {
		return nil, err
	}
	var k *Kernel
	var helpers []*Func
	p := &parser{}
	for _, it := range items {
		switch it.head() {
		case "func":
			f, err := p.fn(it)
			if err != nil {
				return nil, err
			}
			helpers = append(helpers, f)
		case "struct":
			if err := p.structDecl(it); err != nil {
				return nil, err
			}
		case "kernel":
			if k != nil {
				return nil, fmt.Errorf("%w: a second kernel at byte %d", ErrSyntax, it.pos)
			}
			if k, err = p.kernel(it); err != nil {
				return nil, err
			}
		default:
			return nil, p.errf(it, "want (struct ...), (func ...) or (kernel ...)")
		}
	}
	if k == nil {
		return nil, fmt.Errorf("%w: no kernel", ErrSyntax)
	}
	k.Helpers = helpers
	if err := Validate(k); err != nil {
		return nil, err
	}
	return k, nil
}

// head returns the first atom of a list, or "".
func (s *sx) head() string {
	if s.isL && len(s.list) > 0 && !s.list[0].isL {
		return s.list[0].atom
	}
	return ""
}

type parser struct {
	structs map[string]Type // the struct types declared so far
}

// perr carries a syntax error out of the parser's recursion.
type perr struct{ err error }

func (p *parser) errf(s *sx, format string, args ...any) error {
	return fmt.Errorf("%w: at byte %d, %s: %s", ErrSyntax, s.pos, abbrev(s), fmt.Sprintf(format, args...))
}

func (p *parser) fail(s *sx, format string, args ...any) {
	panic(perr{p.errf(s, format, args...)})
}

func abbrev(s *sx) string {
	t := s.String()
	if len(t) > 60 {
		t = t[:57] + "..."
	}
	return t
}

func catch(err *error) {
	if r := recover(); r != nil {
		pe, ok := r.(perr)
		if !ok {
			panic(r)
		}
		*err = pe.err
	}
}

func (p *parser) name(s *sx) string {
	if s.isL || !isIdent(s.atom) {
		p.fail(s, "want a name")
	}
	return s.atom
}

// isIdent reports whether s is a Go identifier (or _).
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == utf8.RuneError || !(r == '_' || unicode.IsLetter(r) || i > 0 && unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}

func (p *parser) typ(s *sx) Type {
	if !s.isL {
		if t, ok := typeByName(s.atom); ok {
			return t
		}
		if t, ok := p.compositeType(s); ok {
			return t
		}
	}
	p.fail(s, "want a type")
	return Invalid
}

func (p *parser) int(s *sx) int {
	if !s.isL {
		if n, err := strconv.Atoi(s.atom); err == nil {
			return n
		}
	}
	p.fail(s, "want an integer")
	return 0
}

// args checks that s is a list of n elements (at least n when min).
func (p *parser) args(s *sx, n int, min bool) []*sx {
	if !s.isL || len(s.list) < n+1 || !min && len(s.list) != n+1 {
		p.fail(s, "want %d operands", n)
	}
	return s.list[1:]
}

func (p *parser) list(s *sx) []*sx {
	if !s.isL {
		p.fail(s, "want a list")
	}
	return s.list
}

func (p *parser) fn(s *sx) (f *Func, err error) {
	defer catch(&err)
	a := p.args(s, 4, false)
	f = &Func{Name: p.name(a[0])}
	f.Params = p.varList(a[1])
	for _, r := range p.list(a[2]) {
		if r.isL {
			v := p.varList(&sx{isL: true, list: []*sx{r}})
			f.Results = append(f.Results, v[0])
		} else {
			f.Results = append(f.Results, Var{Type: p.typ(r)})
		}
	}
	f.Body = p.block(a[3], "body")
	return f, nil
}

func (p *parser) varList(s *sx) []Var {
	var vs []Var
	for _, v := range p.list(s) {
		l := p.list(v)
		if len(l) != 2 {
			p.fail(v, "want (name type)")
		}
		vs = append(vs, Var{Name: p.name(l[0]), Type: p.typ(l[1])})
	}
	return vs
}

func (p *parser) kernel(s *sx) (k *Kernel, err error) {
	defer catch(&err)
	a := p.args(s, 4, true)
	k = &Kernel{Name: p.name(a[0])}
	switch a[1].atom {
	case "for":
		k.Pattern = PatternFor
	case "reduce":
		k.Pattern = PatternReduce
	case "scan":
		k.Pattern = PatternScan
	default:
		p.fail(a[1], "want for, reduce or scan")
	}
	switch a[2].head() {
	case "index":
		for _, n := range a[2].list[1:] {
			k.Index = append(k.Index, p.name(n))
		}
	case "team":
		k.Team = p.name(p.args(a[2], 1, false)[0])
	default:
		p.fail(a[2], "want (index names...) or (team name)")
	}
	rest := a[3:]
	for len(rest) > 1 {
		c := rest[0]
		switch c.head() {
		case "view":
			v := p.args(c, 4, false)
			pr := Param{Name: p.name(v[0]), Type: p.typ(v[1]), Rank: p.int(v[2])}
			switch v[3].atom {
			case "w":
				pr.Write = true
			case "r":
			default:
				p.fail(v[3], "want r or w")
			}
			if pr.Rank < 1 {
				p.fail(v[2], "want a rank of 1 or more")
			}
			k.Params = append(k.Params, pr)
		case "scalar":
			v := p.args(c, 2, false)
			k.Params = append(k.Params, Param{Name: p.name(v[0]), Type: p.typ(v[1])})
		case "token":
			k.Params = append(k.Params, Param{Name: p.name(p.args(c, 1, false)[0]), Token: true})
		case "umap":
			k.Params = append(k.Params, p.parseUMapParam(c))
		case "acc":
			k.Acc = p.typ(p.args(c, 1, false)[0])
		case "final":
			k.Final = p.name(p.args(c, 1, false)[0])
		default:
			p.fail(c, "want (view ...), (scalar ...), (acc type), (final name) or (body ...)")
		}
		rest = rest[1:]
	}
	k.Body = p.block(rest[0], "body")
	return k, nil
}

// block reads (head stmts...).
func (p *parser) block(s *sx, head string) []Stmt {
	if s.head() != head {
		p.fail(s, "want (%s ...)", head)
	}
	return p.stmts(s.list[1:])
}

func (p *parser) stmts(list []*sx) []Stmt {
	out := []Stmt{}
	for _, s := range list {
		out = append(out, p.stmt(s))
	}
	return out
}

// clause returns the operand of an optional (head x) among list's first
// elements, and the rest.
func (p *parser) clause(list []*sx, head string) (*sx, []*sx) {
	if len(list) > 0 && list[0].head() == head {
		return p.args(list[0], 1, false)[0], list[1:]
	}
	return nil, list
}

func (p *parser) stmt(s *sx) Stmt {
	switch s.head() {
	case "var":
		a := p.args(s, 2, false)
		return &VarDecl{Vars: p.varList(a[0]), Values: p.exprs(p.list(a[1]))}
	case "assign":
		a := p.args(s, 2, false)
		st := &Assign{}
		for _, t := range p.list(a[0]) {
			st.Targets = append(st.Targets, p.target(t))
		}
		st.Values = p.exprs(p.list(a[1]))
		return st
	case "opassign":
		a := p.args(s, 3, false)
		return &OpAssign{Op: p.name(a[0]), Target: p.target(a[1]), Value: p.expr(a[2])}
	case "inc", "dec":
		a := p.args(s, 1, false)
		return &IncDec{Dec: s.head() == "dec", Target: p.target(a[0])}
	case "do":
		return &ExprStmt{X: p.expr(p.args(s, 1, false)[0])}
	case "if":
		rest := p.args(s, 2, true)
		st := &If{}
		var init *sx
		init, rest = p.clause(rest, "init")
		if init != nil {
			st.Init = p.stmt(init)
		}
		if len(rest) < 2 || len(rest) > 3 {
			p.fail(s, "want (if (init s)? cond (then ...) (else s)?)")
		}
		st.Cond = p.expr(rest[0])
		st.Then = p.block(rest[1], "then")
		if len(rest) == 3 {
			el, _ := p.clause(rest[2:], "else")
			if el == nil {
				p.fail(rest[2], "want (else stmt)")
			}
			st.Else = p.stmt(el)
			switch st.Else.(type) {
			case *If, *Block:
			default:
				p.fail(el, "want (block ...) or (if ...) after else")
			}
		}
		return st
	case "for":
		rest := p.args(s, 1, true)
		st := &For{}
		var c *sx
		if c, rest = p.clause(rest, "init"); c != nil {
			st.Init = p.stmt(c)
		}
		if c, rest = p.clause(rest, "cond"); c != nil {
			st.Cond = p.expr(c)
		}
		if c, rest = p.clause(rest, "post"); c != nil {
			st.Post = p.stmt(c)
		}
		if len(rest) != 1 {
			p.fail(s, "want (for (init s)? (cond e)? (post s)? (body ...))")
		}
		st.Body = p.block(rest[0], "body")
		return st
	case "range":
		a := p.args(s, 4, false)
		return &Range{Key: p.target(a[0]), T: p.typ(a[1]), N: p.expr(a[2]), Body: p.block(a[3], "body")}
	case "switch":
		rest := s.list[1:]
		st := &Switch{}
		var c *sx
		if c, rest = p.clause(rest, "init"); c != nil {
			st.Init = p.stmt(c)
		}
		if c, rest = p.clause(rest, "tag"); c != nil {
			st.Tag = p.expr(c)
		}
		for _, cl := range rest {
			switch cl.head() {
			case "case":
				a := p.args(cl, 1, true)
				st.Cases = append(st.Cases, Case{Values: p.exprs(p.list(a[0])), Body: p.stmts(a[1:])})
			case "default":
				st.Cases = append(st.Cases, Case{Default: true, Body: p.stmts(cl.list[1:])})
			default:
				p.fail(cl, "want (case (values...) stmts...) or (default stmts...)")
			}
		}
		return st
	case "break":
		p.args(s, 0, false)
		return &Break{}
	case "continue":
		p.args(s, 0, false)
		return &Continue{}
	case "return":
		return &Return{Values: p.exprs(s.list[1:])}
	case "block":
		return &Block{Body: p.stmts(s.list[1:])}
	}
	if st := p.teamStmt(s); st != nil {
		return st
	}
	p.fail(s, "want a statement")
	return nil
}

func (p *parser) target(s *sx) Target {
	if !s.isL {
		if s.atom == "_" {
			return Target{Kind: TargetBlank}
		}
		return Target{Kind: TargetVar, Name: p.name(s)}
	}
	switch s.head() {
	case "new":
		a := p.args(s, 2, false)
		return Target{Kind: TargetNew, Name: p.name(a[0]), T: p.typ(a[1])}
	case "at":
		a := p.args(s, 1, true)
		return Target{Kind: TargetElem, Name: p.name(a[0]), Index: p.exprs(a[1:])}
	case "acc":
		p.args(s, 0, false)
		return Target{Kind: TargetAcc}
	}
	if t, ok := p.partTarget(s); ok {
		return t
	}
	p.fail(s, "want a target: name, _, (new name type), (at view index...) or (acc)")
	return Target{}
}

func (p *parser) exprs(list []*sx) []Expr {
	var out []Expr
	for _, s := range list {
		out = append(out, p.expr(s))
	}
	return out
}

var binaryOps = map[string]bool{
	"add": true, "sub": true, "mul": true, "div": true, "rem": true, "and": true, "or": true, "xor": true,
	"andnot": true, "shl": true, "shr": true, "eq": true, "ne": true, "lt": true, "le": true, "gt": true, "ge": true,
}

func (p *parser) expr(s *sx) Expr {
	if !s.isL {
		if s.atom == "_" {
			p.fail(s, "_ is not a value")
		}
		return &Ref{Name: p.name(s)}
	}
	h := s.head()
	if t, ok := typeByName(h); ok {
		a := p.args(s, 1, false)
		return &Const{T: t, Bits: p.constBits(a[0], t)}
	}
	switch {
	case h == "not":
		return &Unary{Op: h, X: p.expr(p.args(s, 1, false)[0])}
	case h == "neg" || h == "cpl":
		a := p.args(s, 2, false)
		return &Unary{Op: h, T: p.typ(a[0]), X: p.expr(a[1])}
	case h == "land" || h == "lor":
		a := p.args(s, 2, false)
		return &Binary{Op: h, T: Bool, X: p.expr(a[0]), Y: p.expr(a[1])}
	case binaryOps[h]:
		a := p.args(s, 3, false)
		return &Binary{Op: h, T: p.typ(a[0]), X: p.expr(a[1]), Y: p.expr(a[2])}
	case h == "conv":
		a := p.args(s, 2, false)
		return &Convert{T: p.typ(a[0]), X: p.expr(a[1])}
	case h == "at":
		a := p.args(s, 1, true)
		return &At{View: p.name(a[0]), Index: p.exprs(a[1:])}
	case h == "extent":
		a := p.args(s, 2, false)
		return &Extent{View: p.name(a[0]), Dim: p.int(a[1])}
	case h == "acc":
		p.args(s, 0, false)
		return &AccRead{}
	case h == "call":
		a := p.args(s, 1, true)
		return &Call{Func: p.name(a[0]), Args: p.exprs(a[1:])}
	case h == "math":
		a := p.args(s, 1, true)
		return &Math{Func: p.name(a[0]), Args: p.exprs(a[1:])}
	case h == "min" || h == "max":
		a := p.args(s, 2, true)
		return &MinMax{Max: h == "max", T: p.typ(a[0]), Args: p.exprs(a[1:])}
	case h == "atomic":
		a := p.args(s, 3, true)
		return &Atomic{Op: p.name(a[0]), View: p.name(a[1]), Index: p.exprs(p.list(a[2])), Args: p.exprs(a[3:])}
	}
	if x := p.teamExpr(s); x != nil {
		return x
	}
	if x := p.parseToken(h, s); x != nil {
		return x
	}
	if x := p.parseUMap(h, s); x != nil {
		return x
	}
	if x, ok := p.localExpr(s); ok {
		return x
	}
	p.fail(s, "want an expression")
	return nil
}

// constBits reads the literal s of type t.
func (p *parser) constBits(s *sx, t Type) uint64 {
	if s.isL {
		p.fail(s, "want a literal")
	}
	switch {
	case t == Bool:
		switch s.atom {
		case "true":
			return 1
		case "false":
			return 0
		}
	case t.IsSigned():
		if n, err := strconv.ParseInt(s.atom, 10, t.Bits()); err == nil {
			return uint64(n)
		}
	case t.IsUnsigned():
		if n, err := strconv.ParseUint(s.atom, 10, t.Bits()); err == nil {
			return n
		}
	case t.IsFloat():
		if f, err := strconv.ParseFloat(s.atom, t.Bits()); err == nil {
			return math.Float64bits(f)
		}
	}
	p.fail(s, "want a literal of type %s", t)
	return 0
}
