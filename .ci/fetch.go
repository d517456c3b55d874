//go:build ignore

// Fetch downloads a URL to a file and checks its SHA-256:
//
//	go run .ci/fetch.go URL SHA256 FILE
//
// It exits non-zero, removing the file, when the download fails or the
// checksum differs.
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: go run .ci/fetch.go URL SHA256 FILE")
		os.Exit(2)
	}
	url, want, file := os.Args[1], os.Args[2], os.Args[3]
	if err := fetch(url, want, file); err != nil {
		os.Remove(file)
		fmt.Fprintln(os.Stderr, "fetch:", err)
		os.Exit(1)
	}
}

func fetch(url, want, file string) error {
	c := &http.Client{Timeout: 5 * time.Minute}
	var err error
	for try := 0; try < 3; try++ {
		if err = get(c, url, want, file); err == nil {
			return nil
		}
		time.Sleep(time.Duration(try+1) * 2 * time.Second)
	}
	return err
}

func get(c *http.Client, url, want, file string) error {
	resp, err := c.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", url, resp.Status)
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(f, h), resp.Body); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != want {
		return fmt.Errorf("%s: SHA-256 %s, want %s", url, got, want)
	}
	return nil
}
