package main

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"strconv"
	"strings"
)

// A small line chart writer with no dependencies: lines with point
// markers over a linear or logarithmic x axis and a linear y axis, a
// title, axis labels and a legend, written as SVG or as PNG (drawn with a
// built-in 5×7 bitmap font).

// lineChart is a chart of series of (x, y) points.
type lineChart struct {
	title, xLabel, yLabel string
	logX                  bool // x axis in powers of 10; every x must be > 0
	series                []chartSeries
}

type chartSeries struct {
	label string
	pts   []chartPoint
	color color.RGBA
	dash  bool
}

type chartPoint struct{ x, y float64 }

// The chart's geometry in points (1/72 in): 8 × 5 inches.
const (
	chartW, chartH                                = 576.0, 360.0
	plotLeft, plotRight, plotTop, plotBottom      = 64.0, chartW - 16, 36.0, chartH - 48
	tickLen, markerR, lineW, dashOn, dashOff, pad = 4.0, 2.5, 1.5, 4.0, 3.0, 6.0
)

// axis maps data values to chart coordinates between lo and hi (points).
type axis struct {
	log        bool
	min, max   float64 // data range (log10 of it on a log axis)
	lo, hi     float64 // chart coordinates of min and max
	ticks      []float64
	tickLabels []string
}

func (a *axis) pos(v float64) float64 {
	if a.log {
		v = math.Log10(v)
	}
	return a.lo + (v-a.min)/(a.max-a.min)*(a.hi-a.lo)
}

// logAxis spans whole powers of ten around [lo, hi], a tick at each.
func logAxis(lo, hi, from, to float64) axis {
	a := axis{log: true, min: math.Floor(math.Log10(lo)), max: math.Ceil(math.Log10(hi)), lo: from, hi: to}
	if a.max <= a.min {
		a.max = a.min + 1
	}
	for e := a.min; e <= a.max; e++ {
		v := math.Pow(10, e)
		a.ticks = append(a.ticks, v)
		a.tickLabels = append(a.tickLabels, strconv.FormatFloat(v, 'g', -1, 64))
	}
	return a
}

// linearAxis spans [lo, hi] widened to multiples of a round step (1, 2
// or 5 times a power of ten), with 0 included, a tick at each step.
func linearAxis(lo, hi, from, to float64) axis {
	lo, hi = min(lo, 0), max(hi, 0)
	if hi == lo {
		hi = lo + 1
	}
	raw := (hi - lo) / 5
	step := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*step >= raw {
			step *= m
			break
		}
	}
	a := axis{min: math.Floor(lo/step) * step, max: math.Ceil(hi/step) * step, lo: from, hi: to}
	for k := 0; ; k++ {
		v := a.min + float64(k)*step
		if v > a.max+step/2 {
			break
		}
		a.ticks = append(a.ticks, v)
		a.tickLabels = append(a.tickLabels, strconv.FormatFloat(v, 'g', 6, 64))
	}
	return a
}

// axes returns the chart's x and y axes over its data.
func (c *lineChart) axes() (x, y axis, err error) {
	xlo, xhi, ylo, yhi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, s := range c.series {
		for _, p := range s.pts {
			if math.IsNaN(p.x) || math.IsInf(p.x, 0) || math.IsNaN(p.y) || math.IsInf(p.y, 0) || c.logX && p.x <= 0 {
				return x, y, fmt.Errorf("chart %q: series %q has the point (%v, %v), which the axes cannot show", c.title, s.label, p.x, p.y)
			}
			xlo, xhi, ylo, yhi = min(xlo, p.x), max(xhi, p.x), min(ylo, p.y), max(yhi, p.y)
		}
	}
	if xlo > xhi {
		return x, y, fmt.Errorf("chart %q has no points", c.title)
	}
	if c.logX {
		x = logAxis(xlo, xhi, plotLeft, plotRight)
	} else {
		x = linearAxis(xlo, xhi, plotLeft, plotRight)
	}
	return x, linearAxis(ylo, yhi, plotBottom, plotTop), nil
}

// canvas is what the chart draws on, in points, y downwards.
type canvas interface {
	line(pts []chartPoint, c color.RGBA, width float64, dash bool, class string)
	circle(x, y, r float64, c color.RGBA)
	// text draws s with its anchor (-1 start, 0 middle, 1 end) at x and
	// its vertical middle at y, rotated a quarter turn anticlockwise
	// when up.
	text(x, y float64, s string, size float64, anchor int, up bool, class string)
	group(class, label string)
	endGroup()
}

var (
	black = color.RGBA{0, 0, 0, 255}
	grey  = color.RGBA{220, 220, 220, 255}
)

// draw draws the chart on cv.
func (c *lineChart) draw(cv canvas) error {
	xa, ya, err := c.axes()
	if err != nil {
		return err
	}
	for k, v := range xa.ticks {
		px := xa.pos(v)
		cv.line([]chartPoint{{px, plotTop}, {px, plotBottom}}, grey, 0.5, false, "grid")
		cv.line([]chartPoint{{px, plotBottom}, {px, plotBottom + tickLen}}, black, 1, false, "")
		cv.text(px, plotBottom+tickLen+8, xa.tickLabels[k], 10, 0, false, "xtick")
	}
	for k, v := range ya.ticks {
		py := ya.pos(v)
		cv.line([]chartPoint{{plotLeft, py}, {plotRight, py}}, grey, 0.5, false, "grid")
		cv.line([]chartPoint{{plotLeft - tickLen, py}, {plotLeft, py}}, black, 1, false, "")
		cv.text(plotLeft-tickLen-3, py, ya.tickLabels[k], 10, 1, false, "ytick")
	}
	cv.line([]chartPoint{{plotLeft, plotTop}, {plotLeft, plotBottom}, {plotRight, plotBottom}}, black, 1, false, "axis")
	cv.text((plotLeft+plotRight)/2, 16, c.title, 13, 0, false, "title")
	cv.text((plotLeft+plotRight)/2, chartH-12, c.xLabel, 11, 0, false, "xlabel")
	cv.text(14, (plotTop+plotBottom)/2, c.yLabel, 11, 0, true, "ylabel")
	for _, s := range c.series {
		cv.group("series", s.label)
		pts := make([]chartPoint, len(s.pts))
		for i, p := range s.pts {
			pts[i] = chartPoint{xa.pos(p.x), ya.pos(p.y)}
		}
		if len(pts) > 1 {
			cv.line(pts, s.color, lineW, s.dash, "")
		}
		for _, p := range pts {
			cv.circle(p.x, p.y, markerR, s.color)
		}
		cv.endGroup()
	}
	// The legend, top right inside the plot.
	const rowH, sample = 13.0, 24.0
	width := 0.0
	for _, s := range c.series {
		width = max(width, textWidth(s.label, 10))
	}
	x0, y0 := plotRight-pad-width-sample-4, plotTop+pad+rowH/2
	for k, s := range c.series {
		y := y0 + float64(k)*rowH
		cv.line([]chartPoint{{x0, y}, {x0 + sample, y}}, s.color, lineW, s.dash, "legend")
		cv.text(x0+sample+4, y, s.label, 10, -1, false, "legend")
	}
	return nil
}

// textWidth estimates the width in points of s at size (for the legend's
// place): the PNG font's advance, which is wider than most SVG fonts.
func textWidth(s string, size float64) float64 {
	return float64(len([]rune(s))) * size * 0.6
}

// writeSVG writes the chart as an SVG document.
func (c *lineChart) writeSVG(w io.Writer) error {
	bw := bufio.NewWriter(w)
	cv := &svgCanvas{w: bw}
	fmt.Fprintf(bw, `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="%gpt" height="%gpt" viewBox="0 0 %g %g" font-family="sans-serif">
<rect width="100%%" height="100%%" fill="white"/>
`, chartW, chartH, chartW, chartH)
	if err := c.draw(cv); err != nil {
		return err
	}
	bw.WriteString("</svg>\n")
	return bw.Flush()
}

type svgCanvas struct{ w *bufio.Writer }

func svgColor(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

func svgNum(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func classAttr(class string) string {
	if class == "" {
		return ""
	}
	return ` class="` + class + `"`
}

func (s *svgCanvas) line(pts []chartPoint, c color.RGBA, width float64, dash bool, class string) {
	var b strings.Builder
	for i, p := range pts {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(svgNum(p.x) + "," + svgNum(p.y))
	}
	d := ""
	if dash {
		d = fmt.Sprintf(` stroke-dasharray="%g %g"`, dashOn, dashOff)
	}
	fmt.Fprintf(s.w, `<polyline%s points="%s" fill="none" stroke="%s" stroke-width="%g"%s/>`+"\n", classAttr(class), b.String(), svgColor(c), width, d)
}

func (s *svgCanvas) circle(x, y, r float64, c color.RGBA) {
	fmt.Fprintf(s.w, `<circle class="point" cx="%s" cy="%s" r="%g" fill="%s"/>`+"\n", svgNum(x), svgNum(y), r, svgColor(c))
}

func (s *svgCanvas) text(x, y float64, str string, size float64, anchor int, up bool, class string) {
	a := [...]string{"start", "middle", "end"}[anchor+1]
	rot := ""
	if up {
		rot = fmt.Sprintf(` transform="rotate(-90 %s %s)"`, svgNum(x), svgNum(y))
	}
	fmt.Fprintf(s.w, `<text%s x="%s" y="%s" font-size="%g" text-anchor="%s" dominant-baseline="central"%s>`, classAttr(class), svgNum(x), svgNum(y), size, a, rot)
	xml.EscapeText(s.w, []byte(str))
	s.w.WriteString("</text>\n")
}

func (s *svgCanvas) group(class, label string) {
	fmt.Fprintf(s.w, `<g class="%s" data-label="`, class)
	xml.EscapeText(s.w, []byte(label))
	s.w.WriteString("\">\n")
}

func (s *svgCanvas) endGroup() { s.w.WriteString("</g>\n") }

// pngScale is the PNG's pixels per point: 96 dpi.
const pngScale = 96.0 / 72

// writePNG writes the chart as a PNG image of 768 × 480 pixels.
func (c *lineChart) writePNG(w io.Writer) error {
	img := image.NewRGBA(image.Rect(0, 0, int(chartW*pngScale), int(chartH*pngScale)))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	if err := c.draw(&pngCanvas{img: img}); err != nil {
		return err
	}
	return png.Encode(w, img)
}

type pngCanvas struct{ img *image.RGBA }

// disc fills the pixels whose centres lie within r pixels of (x, y).
func (p *pngCanvas) disc(x, y, r float64, c color.RGBA) {
	for py := int(math.Floor(y - r)); py <= int(math.Ceil(y+r)); py++ {
		for px := int(math.Floor(x - r)); px <= int(math.Ceil(x+r)); px++ {
			dx, dy := float64(px)+0.5-x, float64(py)+0.5-y
			if dx*dx+dy*dy <= r*r {
				p.img.SetRGBA(px, py, c)
			}
		}
	}
}

func (p *pngCanvas) line(pts []chartPoint, c color.RGBA, width float64, dash bool, _ string) {
	r := max(width*pngScale/2, 0.5)
	along := 0.0 // distance drawn so far, in points, for the dash pattern
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		n := math.Hypot(b.x-a.x, b.y-a.y)
		steps := max(1, int(n*pngScale*2))
		for k := 0; k <= steps; k++ {
			t := float64(k) / float64(steps)
			if dash && math.Mod(along+t*n, dashOn+dashOff) >= dashOn {
				continue
			}
			p.disc((a.x+t*(b.x-a.x))*pngScale, (a.y+t*(b.y-a.y))*pngScale, r, c)
		}
		along += n
	}
}

func (p *pngCanvas) circle(x, y, r float64, c color.RGBA) {
	p.disc(x*pngScale, y*pngScale, r*pngScale, c)
}

func (p *pngCanvas) text(x, y float64, s string, size float64, anchor int, up bool, _ string) {
	scale := max(1, int(math.Round(size*pngScale/9))) // font pixels per glyph pixel
	runes := []rune(s)
	adv := 6 * scale
	w, h := len(runes)*adv-scale, 7*scale
	x, y = x*pngScale, y*pngScale
	// Start of the text along its direction, and its top edge.
	start := x - float64(w)*float64(anchor+1)/2
	top := y - float64(h)/2
	if up {
		start = y + float64(w)*float64(anchor+1)/2
		top = x - float64(h)/2
	}
	for i, r := range runes {
		g := glyph(r)
		for col := range 5 {
			bits := g[col]
			for row := range 7 {
				if bits&(1<<row) == 0 {
					continue
				}
				for dy := range scale {
					for dx := range scale {
						u := i*adv + col*scale + dx // along the text
						v := row*scale + dy         // down the glyph
						if up {
							p.img.SetRGBA(int(top)+v, int(start)-u, black)
						} else {
							p.img.SetRGBA(int(start)+u, int(top)+v, black)
						}
					}
				}
			}
		}
	}
}

func (p *pngCanvas) group(string, string) {}
func (p *pngCanvas) endGroup()            {}

// glyph returns the 5×7 bitmap of r: five columns, bit k of each the
// pixel of row k from the top; a box for a character the font lacks.
func glyph(r rune) [5]byte {
	if r < ' ' || r > '~' {
		return [5]byte{0x7f, 0x41, 0x41, 0x41, 0x7f}
	}
	var g [5]byte
	copy(g[:], font5x7[int(r-' ')*5:])
	return g
}

// font5x7 holds the printable ASCII characters from ' ' to '~', five
// column bytes each.
var font5x7 = []byte{
	0x00, 0x00, 0x00, 0x00, 0x00, // ' '
	0x00, 0x00, 0x5f, 0x00, 0x00, // !
	0x00, 0x07, 0x00, 0x07, 0x00, // "
	0x14, 0x7f, 0x14, 0x7f, 0x14, // #
	0x24, 0x2a, 0x7f, 0x2a, 0x12, // $
	0x23, 0x13, 0x08, 0x64, 0x62, // %
	0x36, 0x49, 0x55, 0x22, 0x50, // &
	0x00, 0x05, 0x03, 0x00, 0x00, // '
	0x00, 0x1c, 0x22, 0x41, 0x00, // (
	0x00, 0x41, 0x22, 0x1c, 0x00, // )
	0x08, 0x2a, 0x1c, 0x2a, 0x08, // *
	0x08, 0x08, 0x3e, 0x08, 0x08, // +
	0x00, 0x50, 0x30, 0x00, 0x00, // ,
	0x08, 0x08, 0x08, 0x08, 0x08, // -
	0x00, 0x60, 0x60, 0x00, 0x00, // .
	0x20, 0x10, 0x08, 0x04, 0x02, // /
	0x3e, 0x51, 0x49, 0x45, 0x3e, // 0
	0x00, 0x42, 0x7f, 0x40, 0x00, // 1
	0x42, 0x61, 0x51, 0x49, 0x46, // 2
	0x21, 0x41, 0x45, 0x4b, 0x31, // 3
	0x18, 0x14, 0x12, 0x7f, 0x10, // 4
	0x27, 0x45, 0x45, 0x45, 0x39, // 5
	0x3c, 0x4a, 0x49, 0x49, 0x30, // 6
	0x01, 0x71, 0x09, 0x05, 0x03, // 7
	0x36, 0x49, 0x49, 0x49, 0x36, // 8
	0x06, 0x49, 0x49, 0x29, 0x1e, // 9
	0x00, 0x36, 0x36, 0x00, 0x00, // :
	0x00, 0x56, 0x36, 0x00, 0x00, // ;
	0x08, 0x14, 0x22, 0x41, 0x00, // <
	0x14, 0x14, 0x14, 0x14, 0x14, // =
	0x00, 0x41, 0x22, 0x14, 0x08, // >
	0x02, 0x01, 0x51, 0x09, 0x06, // ?
	0x32, 0x49, 0x79, 0x41, 0x3e, // @
	0x7e, 0x11, 0x11, 0x11, 0x7e, // A
	0x7f, 0x49, 0x49, 0x49, 0x36, // B
	0x3e, 0x41, 0x41, 0x41, 0x22, // C
	0x7f, 0x41, 0x41, 0x22, 0x1c, // D
	0x7f, 0x49, 0x49, 0x49, 0x41, // E
	0x7f, 0x09, 0x09, 0x09, 0x01, // F
	0x3e, 0x41, 0x49, 0x49, 0x7a, // G
	0x7f, 0x08, 0x08, 0x08, 0x7f, // H
	0x00, 0x41, 0x7f, 0x41, 0x00, // I
	0x20, 0x40, 0x41, 0x3f, 0x01, // J
	0x7f, 0x08, 0x14, 0x22, 0x41, // K
	0x7f, 0x40, 0x40, 0x40, 0x40, // L
	0x7f, 0x02, 0x0c, 0x02, 0x7f, // M
	0x7f, 0x04, 0x08, 0x10, 0x7f, // N
	0x3e, 0x41, 0x41, 0x41, 0x3e, // O
	0x7f, 0x09, 0x09, 0x09, 0x06, // P
	0x3e, 0x41, 0x51, 0x21, 0x5e, // Q
	0x7f, 0x09, 0x19, 0x29, 0x46, // R
	0x46, 0x49, 0x49, 0x49, 0x31, // S
	0x01, 0x01, 0x7f, 0x01, 0x01, // T
	0x3f, 0x40, 0x40, 0x40, 0x3f, // U
	0x1f, 0x20, 0x40, 0x20, 0x1f, // V
	0x3f, 0x40, 0x38, 0x40, 0x3f, // W
	0x63, 0x14, 0x08, 0x14, 0x63, // X
	0x07, 0x08, 0x70, 0x08, 0x07, // Y
	0x61, 0x51, 0x49, 0x45, 0x43, // Z
	0x00, 0x7f, 0x41, 0x41, 0x00, // [
	0x02, 0x04, 0x08, 0x10, 0x20, // \
	0x00, 0x41, 0x41, 0x7f, 0x00, // ]
	0x04, 0x02, 0x01, 0x02, 0x04, // ^
	0x40, 0x40, 0x40, 0x40, 0x40, // _
	0x00, 0x01, 0x02, 0x04, 0x00, // `
	0x20, 0x54, 0x54, 0x54, 0x78, // a
	0x7f, 0x48, 0x44, 0x44, 0x38, // b
	0x38, 0x44, 0x44, 0x44, 0x20, // c
	0x38, 0x44, 0x44, 0x48, 0x7f, // d
	0x38, 0x54, 0x54, 0x54, 0x18, // e
	0x08, 0x7e, 0x09, 0x01, 0x02, // f
	0x0c, 0x52, 0x52, 0x52, 0x3e, // g
	0x7f, 0x08, 0x04, 0x04, 0x78, // h
	0x00, 0x44, 0x7d, 0x40, 0x00, // i
	0x20, 0x40, 0x44, 0x3d, 0x00, // j
	0x7f, 0x10, 0x28, 0x44, 0x00, // k
	0x00, 0x41, 0x7f, 0x40, 0x00, // l
	0x7c, 0x04, 0x18, 0x04, 0x78, // m
	0x7c, 0x08, 0x04, 0x04, 0x78, // n
	0x38, 0x44, 0x44, 0x44, 0x38, // o
	0x7c, 0x14, 0x14, 0x14, 0x08, // p
	0x08, 0x14, 0x14, 0x18, 0x7c, // q
	0x7c, 0x08, 0x04, 0x04, 0x08, // r
	0x48, 0x54, 0x54, 0x54, 0x20, // s
	0x04, 0x3f, 0x44, 0x40, 0x20, // t
	0x3c, 0x40, 0x40, 0x20, 0x7c, // u
	0x1c, 0x20, 0x40, 0x20, 0x1c, // v
	0x3c, 0x40, 0x30, 0x40, 0x3c, // w
	0x44, 0x28, 0x10, 0x28, 0x44, // x
	0x0c, 0x50, 0x50, 0x50, 0x3c, // y
	0x44, 0x64, 0x54, 0x4c, 0x44, // z
	0x00, 0x08, 0x36, 0x41, 0x00, // {
	0x00, 0x00, 0x7f, 0x00, 0x00, // |
	0x00, 0x41, 0x36, 0x08, 0x00, // }
	0x08, 0x04, 0x08, 0x10, 0x08, // ~
}
