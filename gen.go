package kokkos

// The generated files (*_gen.go, *_gen_test.go) come from the templates in
// internal/gen/templates; edit those and run go generate.

//go:generate go run ./internal/gen
