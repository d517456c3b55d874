//go:build !((linux || darwin) && (amd64 || arm64))

package tools

import (
	"fmt"
	"runtime"
)

type library struct{ Nop }

func (*library) init(int) {}

func openLibrary(string) (*library, error) {
	return nil, fmt.Errorf("no loader of C libraries for %s/%s", runtime.GOOS, runtime.GOARCH)
}
