//go:build race

package stencil

const raceEnabled = true
