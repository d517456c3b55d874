package affinity

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

// TestFromEnv: every value of the binding and places variables, which
// pair of variables is read, and the errors, which name the variable.
func TestFromEnv(t *testing.T) {
	for _, tc := range []struct {
		env    []string
		want   Settings
		errHas string // "" for no error
	}{
		{env: nil, want: Settings{}},
		{env: []string{"KOKKOS_PROC_BIND", "spread"}, want: Settings{Policy: Spread, BindVar: "KOKKOS_PROC_BIND=spread"}},
		{env: []string{"KOKKOS_PROC_BIND", "Close"}, want: Settings{Policy: Close, BindVar: "KOKKOS_PROC_BIND=Close"}},
		{env: []string{"KOKKOS_PROC_BIND", " TRUE "}, want: Settings{Policy: Spread, BindVar: "KOKKOS_PROC_BIND= TRUE "}},
		{env: []string{"KOKKOS_PROC_BIND", "false"}, want: Settings{BindVar: "KOKKOS_PROC_BIND=false"}},
		{env: []string{"KOKKOS_PROC_BIND", "close,spread"}, want: Settings{Policy: Close, BindVar: "KOKKOS_PROC_BIND=close,spread"}},
		{env: []string{"KOKKOS_PROC_BIND", "spread", "KOKKOS_PLACES", "cores"}, want: Settings{Policy: Spread, Unit: Cores, BindVar: "KOKKOS_PROC_BIND=spread", PlacesVar: "KOKKOS_PLACES=cores"}},
		{env: []string{"KOKKOS_PROC_BIND", "close", "KOKKOS_PLACES", "threads(4)"}, want: Settings{Policy: Close, Limit: 4, BindVar: "KOKKOS_PROC_BIND=close", PlacesVar: "KOKKOS_PLACES=threads(4)"}},
		{env: []string{"KOKKOS_PLACES", "cores( 2 )"}, want: Settings{Policy: Spread, Unit: Cores, Limit: 2, PlacesVar: "KOKKOS_PLACES=cores( 2 )"}},
		// OpenMP's pair, read only when gokkos's is unset.
		{env: []string{"OMP_PROC_BIND", "spread", "OMP_PLACES", "threads"}, want: Settings{}}, // OpenMP's variables are not read
		{env: []string{"OMP_PROC_BIND", "master", "OMP_PLACES", "{0:4}"}, want: Settings{}},
		{env: []string{"OMP_PROC_BIND", "spread", "KOKKOS_PROC_BIND", "false"}, want: Settings{BindVar: "KOKKOS_PROC_BIND=false"}},
		{env: []string{"OMP_PLACES", "cores", "KOKKOS_PROC_BIND", "close"}, want: Settings{Policy: Close, BindVar: "KOKKOS_PROC_BIND=close"}},
		{env: []string{"KOKKOS_PROC_BIND", "sprd"}, errHas: `KOKKOS_PROC_BIND="sprd": "sprd" is not one of false, true, spread, close`},
		{env: []string{"KOKKOS_PROC_BIND", "sprd"}, errHas: `KOKKOS_PROC_BIND="sprd": "sprd" is not one of`},
		{env: []string{"KOKKOS_PROC_BIND", "primary"}, errHas: `KOKKOS_PROC_BIND="primary": primary binds every thread to the caller's place`},
		{env: []string{"KOKKOS_PROC_BIND", "master"}, errHas: `KOKKOS_PROC_BIND="master": master binds`},
		{env: []string{"KOKKOS_PROC_BIND", "spread,"}, errHas: `KOKKOS_PROC_BIND="spread,": "" is not one of`},
		{env: []string{"KOKKOS_PROC_BIND", "false,spread"}, errHas: `false cannot be mixed`},
		{env: []string{"KOKKOS_PROC_BIND", "spread", "KOKKOS_PLACES", "sockets"}, errHas: `KOKKOS_PLACES="sockets": sockets places are not supported`},
		{env: []string{"KOKKOS_PLACES", "numa_domains"}, errHas: `KOKKOS_PLACES="numa_domains": numa_domains places are not supported`},
		{env: []string{"KOKKOS_PLACES", "{0,1},{2,3}"}, errHas: `KOKKOS_PLACES="{0,1},{2,3}": explicit place lists are not supported`},
		{env: []string{"KOKKOS_PLACES", "0,1"}, errHas: `KOKKOS_PLACES="0,1": explicit place lists`},
		{env: []string{"KOKKOS_PLACES", "threads(0)"}, errHas: `KOKKOS_PLACES="threads(0)": the count "0" is not a positive integer`},
		{env: []string{"KOKKOS_PLACES", "threads(x)"}, errHas: `the count "x"`},
		{env: []string{"KOKKOS_PLACES", "threads(4"}, errHas: `KOKKOS_PLACES="threads(4": unbalanced parenthesis`},
		{env: []string{"KOKKOS_PLACES", "hwthreads"}, errHas: `"hwthreads" is not one of threads, cores`},
	} {
		s, err := FromEnv(env(tc.env...))
		if tc.errHas != "" {
			if !errors.Is(err, ErrSetting) || !strings.Contains(err.Error(), tc.errHas) {
				t.Errorf("%v: error %v, want one wrapping ErrSetting containing %q", tc.env, err, tc.errHas)
			}
			continue
		}
		if err != nil || s != tc.want {
			t.Errorf("%v: %+v, %v; want %+v", tc.env, s, err, tc.want)
		}
	}
}

// A machine of 4 cores with 2 hardware threads each, numbered as Intel
// processors number them: CPU c and c+4 share core c%4.
func htMachine(allowed ...int) Machine {
	return Machine{Allowed: allowed, Core: func(c int) CPUSet { return CPUSet{c % 4, c%4 + 4} }}
}

func TestPlaces(t *testing.T) {
	for _, tc := range []struct {
		name  string
		m     Machine
		u     Unit
		limit int
		want  []CPUSet
	}{
		{"no topology", Machine{Allowed: CPUSet{3, 1, 2}}, Threads, 0, []CPUSet{{1}, {2}, {3}}},
		{"ht threads", htMachine(0, 1, 2, 3, 4, 5, 6, 7), Threads, 0, []CPUSet{{0}, {4}, {1}, {5}, {2}, {6}, {3}, {7}}},
		{"ht cores", htMachine(0, 1, 2, 3, 4, 5, 6, 7), Cores, 0, []CPUSet{{0, 4}, {1, 5}, {2, 6}, {3, 7}}},
		{"ht cores limit", htMachine(0, 1, 2, 3, 4, 5, 6, 7), Cores, 3, []CPUSet{{0, 4}, {1, 5}, {2, 6}}},
		{"taskset cores", htMachine(1, 5, 6), Cores, 0, []CPUSet{{1, 5}, {6}}},
		{"taskset threads", htMachine(6, 1, 5), Threads, 0, []CPUSet{{1}, {5}, {6}}},
		{"limit above", htMachine(1, 2), Threads, 9, []CPUSet{{1}, {2}}},
	} {
		if got := tc.m.Places(tc.u, tc.limit); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestAssign: close and spread as OpenMP assigns threads to places, and
// the refusal of fewer places than participants.
func TestAssign(t *testing.T) {
	flat := Machine{Allowed: CPUSet{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}}
	for _, tc := range []struct {
		name string
		s    Settings
		m    Machine
		n    int
		want []CPUSet
	}{
		{"unbound", Settings{}, flat, 4, nil},
		{"close 4 of 16", Settings{Policy: Close}, flat, 4, []CPUSet{{0}, {1}, {2}, {3}}},
		{"spread 4 of 16", Settings{Policy: Spread}, flat, 4, []CPUSet{{0}, {4}, {8}, {12}}},
		{"spread 16 of 16", Settings{Policy: Spread}, flat, 16, []CPUSet{{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}, {9}, {10}, {11}, {12}, {13}, {14}, {15}}},
		{"spread 3 of 16", Settings{Policy: Spread}, flat, 3, []CPUSet{{0}, {6}, {11}}},
		{"spread 2 of 5", Settings{Policy: Spread}, Machine{Allowed: CPUSet{0, 1, 2, 3, 4}}, 2, []CPUSet{{0}, {3}}},
		{"spread 4 ht threads", Settings{Policy: Spread}, htMachine(0, 1, 2, 3, 4, 5, 6, 7), 4, []CPUSet{{0}, {1}, {2}, {3}}},
		{"close 4 ht threads", Settings{Policy: Close}, htMachine(0, 1, 2, 3, 4, 5, 6, 7), 4, []CPUSet{{0}, {4}, {1}, {5}}},
		{"spread 2 ht cores", Settings{Policy: Spread, Unit: Cores}, htMachine(0, 1, 2, 3, 4, 5, 6, 7), 2, []CPUSet{{0, 4}, {2, 6}}},
		{"taskset spread", Settings{Policy: Spread}, Machine{Allowed: CPUSet{8, 9, 10, 11}}, 2, []CPUSet{{8}, {10}}},
	} {
		got, err := Assign(tc.s, tc.m, tc.n)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
	s, _ := FromEnv(env("KOKKOS_PROC_BIND", "spread", "KOKKOS_PLACES", "cores"))
	if s.Variables() != "KOKKOS_PROC_BIND=spread KOKKOS_PLACES=cores" {
		t.Errorf("Variables %q", s.Variables())
	}
	_, err := Assign(s, htMachine(0, 1, 4), 3)
	want := "3 participants but 2 cores places on the allowed CPUs 0-1,4; use at most 2 threads"
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), want) {
		t.Errorf("3 participants on 2 cores: %v, want ErrUnsupported containing %q", err, want)
	}
}

func TestParseList(t *testing.T) {
	for in, want := range map[string]CPUSet{"": nil, "0": {0}, "0-3,8,10-11": {0, 1, 2, 3, 8, 10, 11}, "5,1-2": {1, 2, 5}} {
		if got, err := ParseList(in); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %v, %v", in, got, err)
		}
		if in != "" && want.String() != in && in != "5,1-2" {
			t.Errorf("String of %v: %q", want, want.String())
		}
	}
	for _, bad := range []string{"x", "3-1", "-1", "1,,2"} {
		if _, err := ParseList(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
