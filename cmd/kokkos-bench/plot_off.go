//go:build !plot

package main

import (
	"errors"
	"io"
)

// plotBuilt says that this binary can draw -plot files: the plot and its
// modules are built only with the plot tag, so that the default build
// downloads and compiles no plotting library.
const plotBuilt = false

// errNoPlot is what -plot answers in a binary built without the plot tag.
var errNoPlot = errors.New("-plot: this kokkos-bench was built without the plot; run it as: go run -tags plot ./cmd/kokkos-bench -plot FILE.svg")

func plotStream(config, string, io.Writer) error { return errNoPlot }
