//go:build amd64.v3

package kerneltest

// With GOAMD64=v3 the compiler may fuse a multiply and an add in the Go
// body, which the description never does.
func init() { fusedHost = true }
