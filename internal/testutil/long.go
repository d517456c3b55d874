package testutil

import "testing"

// LongTag is the build tag that runs the long tests and the long parts of
// tests: go test -tags longtest ./... (.ci/run does). Without it the long
// tests say so as skips, and the test files whose compilation is heavy
// (many element types, hence many instantiations of the generic views)
// are left out of the root package's test binary, so that the plain
// go test ./... a newcomer runs stays within about two minutes and 2 GB.
const LongTag = "longtest"

// Long reports whether the long tests run: built with -tags longtest, and
// not -short.
func Long() bool {
	return longTests && !testing.Short()
}

// LongSkipMessage begins the reason of every long test or part left out;
// .ci/testsum.go counts the skips that carry it.
const LongSkipMessage = "long test: -tags " + LongTag + " runs it (.ci/run does)"

// SkipUnlessLong skips t unless the long tests run, saying what it left
// out and how to run it.
func SkipUnlessLong(t testing.TB, what string) {
	t.Helper()
	if !Long() {
		t.Skipf("%s: %s", LongSkipMessage, what)
	}
}

// LongPart reports whether a long part of t runs; when it does not, a
// subtest named name skips, saying what was left out, so that the part
// shows in the count of skipped tests.
func LongPart(t *testing.T, name, what string) bool {
	t.Helper()
	if Long() {
		return true
	}
	t.Run(name, func(t *testing.T) { t.Skipf("%s: %s", LongSkipMessage, what) })
	return false
}
