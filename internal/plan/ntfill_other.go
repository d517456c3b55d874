//go:build !amd64

package plan

// fillStream reports false: without non-temporal stores, fillRun's block
// copies stand in.
func fillStream[T any](r []T, x T) bool { return false }

// StoreFence does nothing: there are no non-temporal stores to order.
func StoreFence() {}
