// Package affinity binds the worker goroutines of the kokkos package's pool
// to CPUs, as OMP_PROC_BIND and OMP_PLACES bind the threads of an OpenMP
// program: the places are the cores or hardware threads of the CPUs the
// process may run on (its sched_getaffinity set, which taskset, numactl,
// cgroup cpusets and MPI launchers restrict), and a binding policy, spread
// or close, gives each participant of the pool one place.
//
// Settings come from KOKKOS_PROC_BIND and KOKKOS_PLACES, which take
// OpenMP's values (see FromEnv). OMP_PROC_BIND and OMP_PLACES are not
// read: job scripts set them for other code (often to values such as
// master, which the pool refuses), and binding is opt-in: on the 16-core
// host measured it made the pool slower.
// Binding a thread needs Linux (sched_setaffinity); elsewhere Bind returns
// an error wrapping ErrUnsupported.
package affinity

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gokkos/kokkos/internal/errkind"
)

var (
	// ErrSetting: a binding or places variable has a value the package
	// does not take.
	ErrSetting = errors.New("affinity: invalid setting")
	// ErrUnsupported: the workers cannot be bound as asked (an operating
	// system without sched_setaffinity, fewer places than participants,
	// a refused system call).
	ErrUnsupported = errors.New("affinity: cannot bind")
)

// Policy is how participants are given places.
type Policy uint8

const (
	// Unbound: the workers run where the Go scheduler and the operating
	// system put them (OMP_PROC_BIND=false, or nothing set).
	Unbound Policy = iota
	// Close: participant i has place i (OMP_PROC_BIND=close).
	Close
	// Spread: the places are split into as many contiguous groups as
	// there are participants, and participant i has the first place of
	// group i (OMP_PROC_BIND=spread, and true).
	Spread
)

func (p Policy) String() string { return [...]string{"false", "close", "spread"}[p] }

// Unit is what one place holds.
type Unit uint8

const (
	// Threads: a place is one hardware thread (logical CPU); the places of
	// one core's hardware threads are next to each other.
	Threads Unit = iota
	// Cores: a place is the allowed hardware threads of one core.
	Cores
)

func (u Unit) String() string { return [...]string{"threads", "cores"}[u] }

// Settings are a binding policy and the places it binds to, with the
// variables they were read from (for messages).
type Settings struct {
	Policy Policy
	Unit   Unit
	// Limit is the most places used (OpenMP's "threads(4)"); 0 for all.
	Limit int
	// BindVar and PlacesVar are "NAME=value" of the variables read ("" if
	// unset).
	BindVar, PlacesVar string
}

// Bound reports whether s binds workers.
func (s Settings) Bound() bool { return s.Policy != Unbound }

// Variables names the variables that s was read from, "NAME=value" joined
// by a space.
func (s Settings) Variables() string {
	return strings.TrimSpace(s.BindVar + " " + s.PlacesVar)
}

// The variables FromEnv reads.
const (
	BindVar   = "KOKKOS_PROC_BIND"
	PlacesVar = "KOKKOS_PLACES"
)

// FromEnv reads the settings through getenv (os.Getenv): KOKKOS_PROC_BIND
// and KOKKOS_PLACES.
//
// The binding variable takes OpenMP's values, in any case: false (no
// binding), true or spread, and close; a comma-separated list (OpenMP's
// nested levels) is checked whole and its first value used. primary and
// master, which bind every thread to the primary thread's place, are
// refused: the caller of a pattern is a goroutine of the program's own,
// which the pool does not bind. The places variable takes threads or
// cores, optionally with a count ("cores(8)": the first 8); unset, it is
// threads. OpenMP's other abstract names and explicit place lists are
// refused: restrict the CPUs with taskset instead. Places set without the
// binding variable bind with spread, as OpenMP runtimes do.
//
// An invalid value is an error wrapping ErrSetting that names the variable.
func FromEnv(getenv func(string) string) (Settings, error) {
	bindVar, placesVar := BindVar, PlacesVar
	bind, places := getenv(bindVar), getenv(placesVar)
	var s Settings
	if bind != "" {
		s.BindVar = bindVar + "=" + bind
	}
	if places != "" {
		s.PlacesVar = placesVar + "=" + places
	}
	if bind == "" && places == "" {
		return s, nil
	}
	var err error
	s.Policy = Spread
	if bind != "" {
		if s.Policy, err = parsePolicy(bind); err != nil {
			return Settings{}, errkind.Errorf(ErrSetting, "%s=%q: %v", bindVar, bind, err)
		}
	}
	if places != "" {
		if s.Unit, s.Limit, err = parsePlaces(places); err != nil {
			return Settings{}, errkind.Errorf(ErrSetting, "%s=%q: %v", placesVar, places, err)
		}
	}
	return s, nil
}

func parsePolicy(v string) (Policy, error) {
	var first Policy
	for i, f := range strings.Split(v, ",") {
		var p Policy
		switch strings.ToLower(strings.TrimSpace(f)) {
		case "false":
			p = Unbound
		case "true", "spread":
			p = Spread
		case "close":
			p = Close
		case "primary", "master":
			return 0, fmt.Errorf("%s binds every thread to the caller's place, and the pool does not bind the caller (a goroutine of the program's own): use close or spread", strings.TrimSpace(f))
		default:
			return 0, fmt.Errorf("%q is not one of false, true, spread, close", strings.TrimSpace(f))
		}
		if i == 0 {
			first = p
		} else if (p == Unbound) != (first == Unbound) {
			return 0, errors.New("false cannot be mixed with other values")
		}
	}
	return first, nil
}

func parsePlaces(v string) (Unit, int, error) {
	v = strings.ToLower(strings.TrimSpace(v))
	name, limit := v, 0
	if i := strings.IndexByte(v, '('); i >= 0 {
		if !strings.HasSuffix(v, ")") {
			return 0, 0, errors.New("unbalanced parenthesis")
		}
		n, err := strconv.Atoi(strings.TrimSpace(v[i+1 : len(v)-1]))
		if err != nil || n <= 0 {
			return 0, 0, fmt.Errorf("the count %q is not a positive integer", v[i+1:len(v)-1])
		}
		name, limit = strings.TrimSpace(v[:i]), n
	}
	switch name {
	case "threads":
		return Threads, limit, nil
	case "cores":
		return Cores, limit, nil
	case "sockets", "ll_caches", "numa_domains":
		return 0, 0, fmt.Errorf("%s places are not supported: use threads or cores, and restrict the CPUs with taskset or numactl", name)
	}
	if strings.ContainsAny(v, "{0123456789") {
		return 0, 0, errors.New("explicit place lists are not supported: use threads or cores, and restrict the CPUs with taskset")
	}
	return 0, 0, fmt.Errorf("%q is not one of threads, cores", name)
}

// A CPUSet is a sorted list of CPU numbers.
type CPUSet []int

func (c CPUSet) String() string {
	var b strings.Builder
	for i := 0; i < len(c); {
		j := i
		for j+1 < len(c) && c[j+1] == c[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(c[i]))
		if j > i {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(c[j]))
		}
		i = j + 1
	}
	return b.String()
}

// Machine is what places are made of: the CPUs the process may run on,
// and the hardware threads of each core (Core maps a CPU to the CPUs of
// its core, itself included; a CPU it does not know is a core alone).
type Machine struct {
	Allowed CPUSet
	Core    func(cpu int) CPUSet
}

// Places returns the places of m for unit u, at most limit of them (0:
// all): one per allowed CPU (Threads) or per core with allowed CPUs
// (Cores, each the core's allowed CPUs). Cores are ordered by their first
// allowed CPU, and a core's hardware threads are consecutive places, as
// OpenMP runtimes order them, so that spread puts participants on
// different cores before it shares one.
func (m Machine) Places(u Unit, limit int) []CPUSet {
	allowed := slices.Clone(m.Allowed)
	slices.Sort(allowed)
	allowed = slices.Compact(allowed)
	seen := map[int]bool{}
	var cores []CPUSet
	for _, c := range allowed {
		if seen[c] {
			continue
		}
		core := CPUSet{c}
		if m.Core != nil {
			core = nil
			for _, s := range m.Core(c) {
				if s == c || slices.Contains(allowed, s) && !seen[s] {
					core = append(core, s)
				}
			}
			slices.Sort(core)
			core = slices.Compact(core)
		}
		for _, s := range core {
			seen[s] = true
		}
		cores = append(cores, core)
	}
	var places []CPUSet
	for _, core := range cores {
		if u == Cores {
			places = append(places, core)
			continue
		}
		for _, c := range core {
			places = append(places, CPUSet{c})
		}
	}
	if limit > 0 && limit < len(places) {
		places = places[:limit]
	}
	return places
}

// Assign returns the place of each of n participants under s on m:
// participant 0 is the pool's caller, which keeps its entry free (the
// pool does not bind it), and participants 1 to n-1 are its workers. With
// fewer places than participants, or no allowed CPU, it returns an error
// wrapping ErrUnsupported.
func Assign(s Settings, m Machine, n int) ([]CPUSet, error) {
	if !s.Bound() || n <= 0 {
		return nil, nil
	}
	places := m.Places(s.Unit, s.Limit)
	if len(places) < n {
		return nil, errkind.Errorf(ErrUnsupported, "%d participants but %d %s places on the allowed CPUs %s; use at most %d threads (KOKKOS_NUM_THREADS) or allow more CPUs",
			n, len(places), s.Unit, m.Allowed, len(places))
	}
	out := make([]CPUSet, n)
	switch s.Policy {
	case Close:
		for i := range n {
			out[i] = places[i]
		}
	case Spread:
		// n contiguous groups of places, the first len%n one place
		// longer; participant i takes the first place of group i.
		size, rem, at := len(places)/n, len(places)%n, 0
		for i := range n {
			out[i] = places[at]
			at += size
			if i < rem {
				at++
			}
		}
	}
	return out, nil
}

// ParseList parses a CPU list as the kernel writes them ("0-3,8,10-11").
func ParseList(s string) (CPUSet, error) {
	var set CPUSet
	if s == "" {
		return set, nil
	}
	for _, f := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(f, "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			return nil, fmt.Errorf("CPU list %q: %q", s, f)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return nil, fmt.Errorf("CPU list %q: %q", s, f)
			}
		}
		for c := a; c <= b; c++ {
			set = append(set, c)
		}
	}
	slices.Sort(set)
	return slices.Compact(set), nil
}
