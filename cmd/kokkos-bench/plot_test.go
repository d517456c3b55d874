package main

import (
	"bytes"
	"image/png"
	"os"
	"testing"
)

func TestPlot(t *testing.T) {
	cfg := config{reps: 3, scale: 1.0 / 512, space: "host"}
	file := t.TempDir() + "/stream.svg"
	var progress bytes.Buffer
	if err := plotStream(cfg, file, &progress); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(file)
	if err != nil || !bytes.Contains(b, []byte("<svg")) || !bytes.Contains(b, []byte("Triad (goroutine loop)")) {
		t.Fatalf("plot file: %v, %d bytes", err, len(b))
	}
	checkSVG(t, b)
	file = t.TempDir() + "/stream.PNG"
	if err := plotStream(cfg, file, &progress); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if r := img.Bounds(); r.Dx() != 768 || r.Dy() != 480 {
		t.Fatalf("PNG of %v, want 768×480", r)
	}
	if err := plotStream(cfg, t.TempDir()+"/x.pdf", &progress); err == nil {
		t.Fatal("a .pdf name must be refused")
	}
}
