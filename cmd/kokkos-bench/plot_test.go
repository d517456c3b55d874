//go:build plot

package main

import (
	"bytes"
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
	if err != nil || !bytes.Contains(b, []byte("<svg")) || !bytes.Contains(b, []byte("Triad")) {
		t.Fatalf("plot file: %v, %d bytes", err, len(b))
	}
	if err := plotStream(cfg, t.TempDir()+"/x.pdf", &progress); err == nil {
		t.Fatal("a .pdf name must be refused")
	}
}
