//go:build !amd64

package cpu

func x86() (avx2, avx512, cx16 bool) { return false, false, false }
