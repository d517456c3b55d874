package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"image/color"
	"image/png"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// svgDoc is what the tests read back from an SVG chart.
type svgDoc struct {
	xticks, yticks [][2]float64 // (tick value, its x or y)
	series         []svgSeries
	texts          map[string][]string // text by class
}

type svgSeries struct {
	label  string
	points [][2]float64 // circles' (cx, cy)
}

// checkSVG parses b strictly with encoding/xml, as one <svg> element, and
// returns its ticks, series and texts.
func checkSVG(t *testing.T, b []byte) svgDoc {
	t.Helper()
	doc := svgDoc{texts: map[string][]string{}}
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict = true
	var stack []xml.StartElement
	var text strings.Builder
	roots := 0
	attr := func(e xml.StartElement, name string) string {
		for _, a := range e.Attr {
			if a.Name.Local == name {
				return a.Value
			}
		}
		return ""
	}
	num := func(e xml.StartElement, name string) float64 {
		v, err := strconv.ParseFloat(attr(e, name), 64)
		if err != nil {
			t.Fatalf("<%s %s=%q>: %v", e.Name.Local, name, attr(e, name), err)
		}
		return v
	}
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, b)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if len(stack) == 0 {
				roots++
				if e.Name.Local != "svg" || e.Name.Space != "http://www.w3.org/2000/svg" {
					t.Fatalf("root element %v, want svg in the SVG namespace", e.Name)
				}
			}
			stack = append(stack, e.Copy())
			text.Reset()
			switch {
			case e.Name.Local == "g" && attr(e, "class") == "series":
				doc.series = append(doc.series, svgSeries{label: attr(e, "data-label")})
			case e.Name.Local == "circle":
				if len(doc.series) == 0 || len(stack) < 2 || stack[len(stack)-2].Name.Local != "g" {
					t.Fatal("a point outside a series group")
				}
				s := &doc.series[len(doc.series)-1]
				s.points = append(s.points, [2]float64{num(e, "cx"), num(e, "cy")})
			}
		case xml.CharData:
			text.Write(e)
		case xml.EndElement:
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if top.Name.Local != "text" {
				continue
			}
			class, s := attr(top, "class"), text.String()
			doc.texts[class] = append(doc.texts[class], s)
			switch class {
			case "xtick", "ytick":
				v, err := strconv.ParseFloat(s, 64)
				if err != nil {
					t.Fatalf("tick label %q: %v", s, err)
				}
				if attr(top, "dominant-baseline") != "central" {
					t.Fatalf("tick label %q is not centred on its y", s)
				}
				if class == "xtick" {
					if attr(top, "text-anchor") != "middle" {
						t.Fatalf("x tick label %q is not centred on its x", s)
					}
					doc.xticks = append(doc.xticks, [2]float64{v, num(top, "x")})
				} else {
					doc.yticks = append(doc.yticks, [2]float64{v, num(top, "y")})
				}
			}
		}
	}
	if roots != 1 || len(stack) != 0 {
		t.Fatalf("%d root elements, %d left open", roots, len(stack))
	}
	if len(doc.xticks) < 2 || len(doc.yticks) < 2 {
		t.Fatalf("%d x ticks and %d y ticks, want 2 or more of each", len(doc.xticks), len(doc.yticks))
	}
	return doc
}

// scale returns the map from values to coordinates that ticks describe
// (through the first and last tick; log10 of the values on a log axis),
// after checking that every tick lies on it.
func scale(t *testing.T, ticks [][2]float64, log bool) func(float64) float64 {
	t.Helper()
	f := func(v float64) float64 {
		if log {
			return math.Log10(v)
		}
		return v
	}
	a, b := ticks[0], ticks[len(ticks)-1]
	m := func(v float64) float64 { return a[1] + (f(v)-f(a[0]))/(f(b[0])-f(a[0]))*(b[1]-a[1]) }
	for _, k := range ticks {
		if math.Abs(m(k[0])-k[1]) > 1e-6 {
			t.Fatalf("tick %v at %v, off the axis' scale (%v)", k[0], k[1], m(k[0]))
		}
	}
	return m
}

func TestChartRandomData(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 29))
	palette := []color.RGBA{{0, 90, 180, 255}, {200, 80, 0, 255}, {0, 140, 60, 255}, {150, 0, 150, 255}}
	for trial := range 40 {
		ch := &lineChart{title: fmt.Sprintf("chart %d <&> \"quoted\"", trial), xLabel: "x & more", yLabel: "y < z", logX: trial%2 == 0}
		yScale := math.Pow(10, float64(rng.IntN(9)-4))
		xScale := math.Pow(10, float64(rng.IntN(7)-3))
		for s := range 1 + rng.IntN(4) {
			cs := chartSeries{label: fmt.Sprintf("series %d <%c>", s, 'a'+rune(s)), color: palette[s], dash: s%2 == 1}
			for range 1 + rng.IntN(12) {
				x := (rng.Float64() - 0.3) * 100 * xScale
				if ch.logX {
					x = math.Pow(10, rng.Float64()*9-3)
				}
				y := (rng.Float64() - 0.25) * yScale
				if trial%4 == 1 {
					y = math.Abs(y) + 3*yScale // all positive, away from 0
				}
				cs.pts = append(cs.pts, chartPoint{x, y})
			}
			ch.series = append(ch.series, cs)
		}
		var b bytes.Buffer
		if err := ch.writeSVG(&b); err != nil {
			t.Fatal(err)
		}
		doc := checkSVG(t, b.Bytes())
		if got := doc.texts["title"]; len(got) != 1 || got[0] != ch.title {
			t.Fatalf("title %q, want %q", got, ch.title)
		}
		if got := doc.texts["xlabel"]; len(got) != 1 || got[0] != ch.xLabel {
			t.Fatalf("x label %q, want %q", got, ch.xLabel)
		}
		if got := doc.texts["ylabel"]; len(got) != 1 || got[0] != ch.yLabel {
			t.Fatalf("y label %q, want %q", got, ch.yLabel)
		}
		xm, ym := scale(t, doc.xticks, ch.logX), scale(t, doc.yticks, false)
		xlo, xhi := doc.xticks[0][0], doc.xticks[len(doc.xticks)-1][0]
		ylo, yhi := doc.yticks[0][0], doc.yticks[len(doc.yticks)-1][0]
		if len(doc.series) != len(ch.series) {
			t.Fatalf("%d series drawn, want %d", len(doc.series), len(ch.series))
		}
		for k, s := range ch.series {
			got := doc.series[k]
			if got.label != s.label || len(got.points) != len(s.pts) {
				t.Fatalf("series %d: %q with %d points, want %q with %d", k, got.label, len(got.points), s.label, len(s.pts))
			}
			if legend := doc.texts["legend"]; k >= len(legend) || legend[k] != s.label {
				t.Fatalf("legend %q lacks %q", legend, s.label)
			}
			for i, p := range s.pts {
				if p.x < xlo || p.x > xhi || p.y < ylo || p.y > yhi {
					t.Fatalf("point %v outside the axes' range [%v, %v] × [%v, %v]", p, xlo, xhi, ylo, yhi)
				}
				want := [2]float64{xm(p.x), ym(p.y)}
				if d := math.Hypot(got.points[i][0]-want[0], got.points[i][1]-want[1]); d > 1e-6 {
					t.Fatalf("trial %d: point %v drawn at %v, the axes put it at %v", trial, p, got.points[i], want)
				}
				if got.points[i][0] < plotLeft-1e-9 || got.points[i][0] > plotRight+1e-9 || got.points[i][1] < plotTop-1e-9 || got.points[i][1] > plotBottom+1e-9 {
					t.Fatalf("point %v drawn at %v, outside the plot area", p, got.points[i])
				}
			}
		}

		// The PNG of the same chart has a marker's colour, or the
		// legend's drawn over it, at each point.
		b.Reset()
		if err := ch.writePNG(&b); err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(&b)
		if err != nil {
			t.Fatal(err)
		}
		for k := range ch.series {
			for _, p := range doc.series[k].points {
				c := color.RGBAModel.Convert(img.At(int(p[0]*pngScale), int(p[1]*pngScale))).(color.RGBA)
				if c == (color.RGBA{255, 255, 255, 255}) || c == grey {
					t.Fatalf("trial %d: PNG pixel at point %v is background %v", trial, p, c)
				}
			}
		}
	}
}

func TestChartRefusals(t *testing.T) {
	for _, c := range []struct {
		name string
		ch   lineChart
		want string
	}{
		{"no points", lineChart{title: "empty", series: []chartSeries{{label: "s"}}}, "no points"},
		{"x ≤ 0 on a log axis", lineChart{title: "log", logX: true, series: []chartSeries{{label: "s", pts: []chartPoint{{1, 1}, {0, 2}}}}}, "cannot show"},
		{"NaN", lineChart{title: "nan", series: []chartSeries{{label: "s", pts: []chartPoint{{1, math.NaN()}}}}}, "cannot show"},
		{"Inf", lineChart{title: "inf", series: []chartSeries{{label: "s", pts: []chartPoint{{math.Inf(1), 1}}}}}, "cannot show"},
	} {
		var b bytes.Buffer
		if err := c.ch.writeSVG(&b); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: SVG: %v, want an error saying %q", c.name, err, c.want)
		}
		if err := c.ch.writePNG(&b); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: PNG: %v, want an error saying %q", c.name, err, c.want)
		}
	}
}

// TestChartOnePoint draws a chart whose data is a single point: the axes
// still span a range around it.
func TestChartOnePoint(t *testing.T) {
	for _, logX := range []bool{false, true} {
		ch := &lineChart{title: "one", logX: logX, series: []chartSeries{{label: "s", pts: []chartPoint{{100, 0}}}}}
		var b bytes.Buffer
		if err := ch.writeSVG(&b); err != nil {
			t.Fatal(err)
		}
		doc := checkSVG(t, b.Bytes())
		xm, ym := scale(t, doc.xticks, logX), scale(t, doc.yticks, false)
		if p := doc.series[0].points[0]; math.Abs(p[0]-xm(100)) > 1e-6 || math.Abs(p[1]-ym(0)) > 1e-6 {
			t.Fatalf("logX %v: the point drawn at %v", logX, p)
		}
	}
}
