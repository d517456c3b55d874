//go:build longtest

package testutil

const longTests = true
