//go:build !longtest

package testutil

const longTests = false
