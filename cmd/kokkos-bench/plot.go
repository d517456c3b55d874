package main

import (
	"fmt"
	"image/color"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// checkPlotFile refuses a -plot file name that ends in neither .svg nor
// .png, before any suite runs.
func checkPlotFile(file string) error {
	ext := strings.ToLower(filepath.Ext(file))
	if ext != ".svg" && ext != ".png" {
		return fmt.Errorf("-plot %s: the file must end in .svg or .png", file)
	}
	return nil
}

// plotStream measures the stream kernels at array sizes from 2^14 to the
// suite's size and draws bandwidth against size, views and baselines, to
// file (.svg or .png).
func plotStream(cfg config, file string, progress io.Writer) error {
	if err := checkPlotFile(file); err != nil {
		return err
	}
	top := scaled(1<<25, cfg.scale)
	kernels := streamKernels()
	ch := &lineChart{
		title:  "gokkos stream kernels: bandwidth against array size",
		xLabel: "elements (float64)",
		yLabel: "GB/s",
		logX:   true,
	}
	palette := []color.RGBA{{0, 90, 180, 255}, {200, 80, 0, 255}, {0, 140, 60, 255}}
	index := map[string]int{}
	for n := 1 << 14; n <= top; n *= 4 {
		fmt.Fprintf(progress, "plot: stream at %d elements...\n", n)
		s, err := newStreamArrays(n)
		if err != nil {
			return err
		}
		for _, k := range kernels {
			if k.name != "Copy" && k.name != "Triad" && k.name != "Dot" {
				continue
			}
			reps := cfg.reps
			if n < 1<<20 {
				reps = cfg.reps * 8 // short runs: more repetitions for a stable median
			}
			kt, bt, _ := timeAlternating(reps, func() { k.view(s) }, func() { k.baseline(s.a.Data(), s.b.Data(), s.c.Data()) })
			for _, c := range []struct {
				label string
				sec   float64
				dash  bool
			}{{k.name + " (views)", kt, false}, {k.name + " (goroutine loop)", bt, true}} {
				i, ok := index[c.label]
				if !ok {
					i = len(ch.series)
					index[c.label] = i
					ch.series = append(ch.series, chartSeries{label: c.label, dash: c.dash, color: palette[(i/2)%len(palette)]})
				}
				ch.series[i].pts = append(ch.series[i].pts, chartPoint{float64(n), float64(k.bytes) * float64(n) / c.sec / 1e9})
			}
		}
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if strings.EqualFold(filepath.Ext(file), ".png") {
		err = ch.writePNG(f)
	} else {
		err = ch.writeSVG(f)
	}
	if e := f.Close(); err == nil {
		err = e
	}
	return err
}
