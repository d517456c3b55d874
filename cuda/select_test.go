package cuda

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// selectEnv clears every variable ChooseDevice reads, sets the given
// ones (name, value pairs) for the test, and makes the driver report
// count devices.
func selectEnv(t *testing.T, count int, kv ...string) {
	t.Helper()
	saved := deviceCount
	t.Cleanup(func() { deviceCount = saved })
	deviceCount = func() (int, error) { return count, nil }
	for _, name := range append([]string{EnvVisibleDevices, EnvDeviceID, EnvMapDeviceIDBy}, localRankVars...) {
		t.Setenv(name, "") // restored at the end of the test
		os.Unsetenv(name)
	}
	for i := 0; i < len(kv); i += 2 {
		t.Setenv(kv[i], kv[i+1])
	}
}

func TestChooseDevice(t *testing.T) {
	cases := []struct {
		count   int
		env     []string
		id      int
		ordinal int
		reason  string
	}{
		{4, nil, AutoDevice, 0, "no local rank set, the first of 4 visible devices"},
		{2, []string{"OMPI_COMM_WORLD_LOCAL_RANK", "3"}, AutoDevice, 1, "OMPI_COMM_WORLD_LOCAL_RANK=3, 2 visible devices"},
		{4, []string{"MV2_COMM_WORLD_LOCAL_RANK", "2"}, AutoDevice, 2, "MV2_COMM_WORLD_LOCAL_RANK=2, 4 visible devices"},
		{4, []string{"MPI_LOCALRANKID", "5"}, AutoDevice, 1, "MPI_LOCALRANKID=5, 4 visible devices"},
		{3, []string{"SLURM_LOCALID", "2"}, AutoDevice, 2, "SLURM_LOCALID=2, 3 visible devices"},
		{3, []string{"PMI_LOCAL_RANK", "4"}, AutoDevice, 1, "PMI_LOCAL_RANK=4, 3 visible devices"},
		// Open MPI's variable comes first, as in Kokkos.
		{4, []string{"PMI_LOCAL_RANK", "1", "OMPI_COMM_WORLD_LOCAL_RANK", "2"}, AutoDevice, 2, "OMPI_COMM_WORLD_LOCAL_RANK=2"},
		{4, []string{"OMPI_COMM_WORLD_LOCAL_RANK", "1", EnvMapDeviceIDBy, "mpi_rank"}, AutoDevice, 1, "OMPI_COMM_WORLD_LOCAL_RANK=1"},
		// The visible devices: the rank indexes their list.
		{4, []string{EnvVisibleDevices, "3,1", "OMPI_COMM_WORLD_LOCAL_RANK", "0"}, AutoDevice, 3, "OMPI_COMM_WORLD_LOCAL_RANK=0, 2 visible devices"},
		{4, []string{EnvVisibleDevices, "3, 1", "OMPI_COMM_WORLD_LOCAL_RANK", "3"}, AutoDevice, 1, "2 visible devices"},
		{4, []string{EnvVisibleDevices, "2"}, AutoDevice, 2, "the first of 1 visible device"},
		// An explicit id indexes the visible devices too, and overrides
		// the rank and the mapping.
		{4, []string{EnvDeviceID, "1", "OMPI_COMM_WORLD_LOCAL_RANK", "3", EnvMapDeviceIDBy, "random"}, AutoDevice, 1, "KOKKOS_DEVICE_ID=1, 4 visible devices"},
		{4, []string{EnvDeviceID, "1", EnvVisibleDevices, "2,3"}, AutoDevice, 3, "KOKKOS_DEVICE_ID=1, 2 visible devices"},
		{4, []string{EnvDeviceID, "1", "OMPI_COMM_WORLD_LOCAL_RANK", "3"}, 2, 2, "device id 2 set in code, 4 visible devices"},
		{4, []string{EnvDeviceID, "junk"}, 0, 0, "device id 0 set in code"},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.env, c.id), func(t *testing.T) {
			selectEnv(t, c.count, c.env...)
			s, err := ChooseDevice(c.id)
			if err != nil {
				t.Fatal(err)
			}
			if s.Ordinal != c.ordinal || !strings.Contains(s.Reason, c.reason) {
				t.Errorf("ChooseDevice(%d) = %v, want GPU %d (%s)", c.id, s, c.ordinal, c.reason)
			}
			if want := fmt.Sprintf("GPU %d (%s)", s.Ordinal, s.Reason); s.String() != want {
				t.Errorf("String() = %q, want %q", s.String(), want)
			}
			if !slices.Contains(s.Visible, s.Ordinal) {
				t.Errorf("the choice %d is not among the visible devices %v", s.Ordinal, s.Visible)
			}
		})
	}
}

// The random mapping is seeded by the process id: the same device on
// every call, one of the visible ones.
func TestChooseDeviceRandom(t *testing.T) {
	selectEnv(t, 8, EnvMapDeviceIDBy, "random", EnvVisibleDevices, "7,5,6", "OMPI_COMM_WORLD_LOCAL_RANK", "0")
	s, err := ChooseDevice(AutoDevice)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains([]int{5, 6, 7}, s.Ordinal) || !strings.Contains(s.Reason, fmt.Sprintf("KOKKOS_MAP_DEVICE_ID_BY=random, process %d, 3 visible devices", os.Getpid())) {
		t.Errorf("random: %v", s)
	}
	for range 5 {
		if again, _ := ChooseDevice(AutoDevice); again.Ordinal != s.Ordinal {
			t.Fatalf("random: %v, then %v", s, again)
		}
	}
}

func TestChooseDeviceInvalid(t *testing.T) {
	cases := []struct {
		count int
		env   []string
		id    int
		want  []string
	}{
		{0, nil, AutoDevice, []string{"no device"}},
		{2, []string{EnvDeviceID, "2"}, AutoDevice, []string{`KOKKOS_DEVICE_ID="2"`, "want 0 to 1", "2 visible devices"}},
		{4, []string{EnvDeviceID, "2", EnvVisibleDevices, "0,1"}, AutoDevice, []string{`KOKKOS_DEVICE_ID="2"`, "2 visible devices"}},
		{2, []string{EnvDeviceID, "-1"}, AutoDevice, []string{`KOKKOS_DEVICE_ID="-1"`}},
		{2, []string{EnvDeviceID, "one"}, AutoDevice, []string{`KOKKOS_DEVICE_ID="one"`}},
		{2, nil, 2, []string{"device id 2 set in code", "want 0 to 1"}},
		{2, nil, -2, []string{"device id -2 set in code"}},
		{2, []string{EnvVisibleDevices, "0,2"}, AutoDevice, []string{`KOKKOS_VISIBLE_DEVICES="0,2"`, `entry "2"`, "2 devices"}},
		{2, []string{EnvVisibleDevices, "-1"}, AutoDevice, []string{`KOKKOS_VISIBLE_DEVICES="-1"`, `entry "-1"`}},
		{2, []string{EnvVisibleDevices, ""}, AutoDevice, []string{`KOKKOS_VISIBLE_DEVICES=""`}},
		{2, []string{EnvVisibleDevices, "0,,1"}, AutoDevice, []string{`KOKKOS_VISIBLE_DEVICES="0,,1"`, `entry ""`}},
		{2, []string{EnvMapDeviceIDBy, "node"}, AutoDevice, []string{`KOKKOS_MAP_DEVICE_ID_BY="node"`, "mpi_rank or random"}},
		// As Kokkos, an unknown mapping is refused even where an id decides.
		{2, []string{EnvMapDeviceIDBy, "", EnvDeviceID, "0"}, AutoDevice, []string{`KOKKOS_MAP_DEVICE_ID_BY=""`}},
		{2, []string{EnvMapDeviceIDBy, "rank"}, 1, []string{`KOKKOS_MAP_DEVICE_ID_BY="rank"`}},
		{2, []string{"SLURM_LOCALID", "x"}, AutoDevice, []string{`SLURM_LOCALID="x"`, "local rank"}},
		{2, []string{"OMPI_COMM_WORLD_LOCAL_RANK", "-3"}, AutoDevice, []string{`OMPI_COMM_WORLD_LOCAL_RANK="-3"`}},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.count, c.env, c.id), func(t *testing.T) {
			selectEnv(t, c.count, c.env...)
			s, err := ChooseDevice(c.id)
			if !errors.Is(err, ErrInvalidDevice) {
				t.Fatalf("ChooseDevice(%d) = %v, %v; want an error matching ErrInvalidDevice", c.id, s, err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%v does not say %q", err, w)
				}
			}
		})
	}
}

// A driver that cannot be loaded is SelectDevice's error, unchanged.
func TestSelectDeviceDriverError(t *testing.T) {
	selectEnv(t, 1)
	bad := errors.New("no driver")
	deviceCount = func() (int, error) { return 0, bad }
	if _, err := SelectDevice(); err != bad {
		t.Errorf("SelectDevice() error = %v, want %v", err, bad)
	}
}

// On a GPU, SelectDevice's device is the chosen ordinal, and its memory
// space and stream work.
func TestSelectDeviceGPU(t *testing.T) {
	if err := Available(); err != nil {
		t.Skipf("CUDA unavailable: %v", err)
	}
	s, err := ChooseDevice(AutoDevice)
	if err != nil {
		t.Fatal(err)
	}
	dev, err := SelectDevice()
	if err != nil {
		t.Fatal(err)
	}
	if dev.Ordinal() != s.Ordinal {
		t.Errorf("SelectDevice() is device %d, ChooseDevice says %v", dev.Ordinal(), s)
	}
	st, err := dev.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer st.Release()
	if !st.CanAccess(SpaceOn(dev.Ordinal())) {
		t.Errorf("a stream of %v cannot access SpaceOn(%d)", s, dev.Ordinal())
	}
	t.Logf("selected %v: %s", s, dev.Name())
}
