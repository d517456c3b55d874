package mpitest

import "testing"

// A GOKKOS_MPI_LIB path to the implementation's soname is the launcher's
// library; another library's, or none, leaves the soname.
func TestLibFor(t *testing.T) {
	for _, c := range []struct{ env, soname, want string }{
		{"", "libmpi.so.40", "libmpi.so.40"},
		{"/tmp/ompi/usr/lib/x86_64-linux-gnu/libmpi.so.40", "libmpi.so.40", "/tmp/ompi/usr/lib/x86_64-linux-gnu/libmpi.so.40"},
		{"/tmp/ompi/usr/lib/x86_64-linux-gnu/libmpi.so.40", "libmpich.so.12", "libmpich.so.12"},
		{"/opt/mpich/lib/libmpich.so.12", "libmpich.so.12", "/opt/mpich/lib/libmpich.so.12"},
		{"libmpi.so.40", "libmpi.so.40", "libmpi.so.40"},
		{"/opt/lib/libmpi.so", "libmpi.so.40", "libmpi.so.40"},
	} {
		t.Setenv("GOKKOS_MPI_LIB", c.env)
		if got := libFor(c.soname); got != c.want {
			t.Errorf("GOKKOS_MPI_LIB=%q: libFor(%q) = %q, want %q", c.env, c.soname, got, c.want)
		}
	}
}
