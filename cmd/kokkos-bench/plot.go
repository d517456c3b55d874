//go:build plot

package main

import (
	"fmt"
	"image/color"
	"io"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// plotBuilt says that this binary can draw -plot files.
const plotBuilt = true

// streamCurve is one line of the plot: a kernel's bandwidth at each size.
type streamCurve struct {
	label string
	pts   plotter.XYs
	dash  bool
}

// plotStream measures the stream kernels at array sizes from 2^14 to the
// suite's size and draws bandwidth against size, views and baselines, to
// file (.svg or .png).
func plotStream(cfg config, file string, progress io.Writer) error {
	ext := strings.ToLower(filepath.Ext(file))
	if ext != ".svg" && ext != ".png" {
		return fmt.Errorf("-plot %s: the file must end in .svg or .png", file)
	}
	top := scaled(1<<25, cfg.scale)
	kernels := streamKernels()
	curves := map[string]*streamCurve{}
	var order []string
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
			kt, bt := timeAlternating(reps, func() { k.view(s) }, func() { k.baseline(s.a.Data(), s.b.Data(), s.c.Data()) })
			for _, c := range []struct {
				label string
				sec   float64
				dash  bool
			}{{k.name + " (views)", kt, false}, {k.name + " (goroutine loop)", bt, true}} {
				cv := curves[c.label]
				if cv == nil {
					cv = &streamCurve{label: c.label, dash: c.dash}
					curves[c.label] = cv
					order = append(order, c.label)
				}
				cv.pts = append(cv.pts, plotter.XY{X: float64(n), Y: float64(k.bytes) * float64(n) / c.sec / 1e9})
			}
		}
	}
	p := plot.New()
	p.Title.Text = "gokkos stream kernels: bandwidth against array size"
	p.X.Label.Text = "elements (float64)"
	p.Y.Label.Text = "GB/s"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Legend.Top = true
	palette := []color.Color{color.RGBA{0, 90, 180, 255}, color.RGBA{200, 80, 0, 255}, color.RGBA{0, 140, 60, 255}}
	for i, label := range order {
		cv := curves[label]
		line, err := plotter.NewLine(cv.pts)
		if err != nil {
			return err
		}
		line.Color = palette[(i/2)%len(palette)]
		line.Width = vg.Points(1.5)
		if cv.dash {
			line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		}
		sc, err := plotter.NewScatter(cv.pts)
		if err != nil {
			return err
		}
		sc.Color = line.Color
		sc.Shape = draw.CircleGlyph{}
		p.Add(line, sc)
		p.Legend.Add(label, line)
	}
	return p.Save(8*vg.Inch, 5*vg.Inch, file)
}
