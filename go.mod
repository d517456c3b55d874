module github.com/gokkos/kokkos

go 1.26
