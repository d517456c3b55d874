package main

import "testing"

func TestRun(t *testing.T) {
	for _, n := range [][2]int{{1, 1}, {30, 20}, {0, 5}} {
		if err := run(n[0], n[1]); err != nil {
			t.Fatal(err)
		}
	}
}
