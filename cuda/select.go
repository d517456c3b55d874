package cuda

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
)

// The environment variables ChooseDevice reads, as Kokkos::initialize.
const (
	// EnvVisibleDevices lists the ordinals of the devices the process
	// may use, separated by commas ("2,3"); all devices when unset.
	EnvVisibleDevices = "KOKKOS_VISIBLE_DEVICES"
	// EnvDeviceID picks one of the visible devices by its index in the
	// list (not its ordinal), overriding EnvMapDeviceIDBy.
	EnvDeviceID = "KOKKOS_DEVICE_ID"
	// EnvMapDeviceIDBy is "mpi_rank" (the default: the process's rank on
	// its node, modulo the number of visible devices) or "random" (seeded
	// by the process id).
	EnvMapDeviceIDBy = "KOKKOS_MAP_DEVICE_ID_BY"
)

// localRankVars are the variables MPI launchers and Slurm set to the
// process's rank among the job's processes on its node, in the order
// Kokkos reads them (Kokkos_CPUDiscovery.cpp, mpi_local_rank_on_node).
var localRankVars = []string{
	"OMPI_COMM_WORLD_LOCAL_RANK", // Open MPI
	"MV2_COMM_WORLD_LOCAL_RANK",  // MVAPICH2
	"MPI_LOCALRANKID",            // MPICH (Hydra)
	"SLURM_LOCALID",              // Slurm
	"PMI_LOCAL_RANK",             // PMI
}

// AutoDevice, passed to ChooseDevice, leaves the choice to the
// environment.
const AutoDevice = -1

// A Selection is the device ChooseDevice picked for this process, and
// why.
type Selection struct {
	Ordinal int    // the device's ordinal, for GetDevice and SpaceOn
	Visible []int  // the ordinals of the visible devices, in their order
	Reason  string // what decided, such as "OMPI_COMM_WORLD_LOCAL_RANK=3, 2 visible devices"
}

// String is "GPU 1 (OMPI_COMM_WORLD_LOCAL_RANK=3, 2 visible devices)".
func (s Selection) String() string { return fmt.Sprintf("GPU %d (%s)", s.Ordinal, s.Reason) }

// Device returns the selected device, as GetDevice(s.Ordinal).
func (s Selection) Device() (*Device, error) { return GetDevice(s.Ordinal) }

// deviceCount is DeviceCount, replaced by the tests.
var deviceCount = DeviceCount

// SelectDevice returns the device this process should use, chosen as
// Kokkos::initialize chooses it: KOKKOS_DEVICE_ID's entry of the visible
// devices when set, else (KOKKOS_MAP_DEVICE_ID_BY unset or "mpi_rank")
// the visible device at the process's local rank (the first of
// OMPI_COMM_WORLD_LOCAL_RANK, MV2_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID,
// SLURM_LOCALID and PMI_LOCAL_RANK set) modulo their number, else the
// first visible device. The visible devices are KOKKOS_VISIBLE_DEVICES's
// list, or all. It is ChooseDevice(AutoDevice) followed by GetDevice;
// call ChooseDevice to learn the reason, or to override the environment.
// Space, NewStream and DefaultStream(0) keep meaning device 0: use
// SpaceOn(dev.Ordinal()) and dev.NewStream() for the selected one.
func SelectDevice() (*Device, error) {
	s, err := ChooseDevice(AutoDevice)
	if err != nil {
		return nil, err
	}
	return s.Device()
}

// ChooseDevice returns SelectDevice's choice and its reason without
// making a context on the device (it asks the driver for the device count
// only). An id of 0 or more overrides the environment, as
// Kokkos::InitializationSettings::set_device_id: the id-th visible
// device. An invalid setting (an id or a KOKKOS_DEVICE_ID outside the
// visible devices, a KOKKOS_VISIBLE_DEVICES entry that is not a device, an
// unknown KOKKOS_MAP_DEVICE_ID_BY, a local rank that is not a number) is
// an error matching ErrInvalidDevice that names the variable and its
// value; so is a driver without devices.
func ChooseDevice(id int) (Selection, error) {
	count, err := deviceCount()
	if err != nil {
		return Selection{}, err
	}
	if count == 0 {
		return Selection{}, fmt.Errorf("%w: the driver reports no device", ErrInvalidDevice)
	}
	visible, err := visibleDevices(count)
	if err != nil {
		return Selection{}, err
	}
	n := len(visible)
	of := fmt.Sprintf("%d visible device%s", n, plural(n))
	pick := func(k int, reason string) (Selection, error) {
		return Selection{Ordinal: visible[k], Visible: visible, Reason: reason}, nil
	}
	by, set := os.LookupEnv(EnvMapDeviceIDBy)
	if set && by != "mpi_rank" && by != "random" {
		return Selection{}, fmt.Errorf("%w: %s=%q: want mpi_rank or random", ErrInvalidDevice, EnvMapDeviceIDBy, by)
	}
	if id != AutoDevice {
		if id < 0 || id >= n {
			return Selection{}, fmt.Errorf("%w: device id %d set in code: want 0 to %d, an index among the %s", ErrInvalidDevice, id, n-1, of)
		}
		return pick(id, fmt.Sprintf("device id %d set in code, %s", id, of))
	}
	if v, ok := os.LookupEnv(EnvDeviceID); ok {
		k, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || k < 0 || k >= n {
			return Selection{}, fmt.Errorf("%w: %s=%q: want 0 to %d, an index among the %s", ErrInvalidDevice, EnvDeviceID, v, n-1, of)
		}
		return pick(k, fmt.Sprintf("%s=%s, %s", EnvDeviceID, v, of))
	}
	if by == "random" {
		pid := os.Getpid()
		k := rand.New(rand.NewPCG(uint64(pid), 0)).IntN(n)
		return pick(k, fmt.Sprintf("%s=random, process %d, %s", EnvMapDeviceIDBy, pid, of))
	}
	for _, name := range localRankVars {
		v, ok := os.LookupEnv(name)
		if !ok {
			continue
		}
		r, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || r < 0 {
			return Selection{}, fmt.Errorf("%w: %s=%q: the local rank the launcher set is not a number of 0 or more", ErrInvalidDevice, name, v)
		}
		return pick(r%n, fmt.Sprintf("%s=%s, %s", name, v, of))
	}
	return pick(0, fmt.Sprintf("no local rank set, the first of %s", of))
}

// visibleDevices returns KOKKOS_VISIBLE_DEVICES's ordinals, or all count.
func visibleDevices(count int) ([]int, error) {
	v, ok := os.LookupEnv(EnvVisibleDevices)
	if !ok {
		all := make([]int, count)
		for i := range all {
			all[i] = i
		}
		return all, nil
	}
	var list []int
	for _, f := range strings.Split(v, ",") {
		d, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || d < 0 || d >= count {
			return nil, fmt.Errorf("%w: %s=%q: entry %q is not a device ordinal of 0 to %d (the driver reports %d device%s)", ErrInvalidDevice, EnvVisibleDevices, v, f, count-1, count, plural(count))
		}
		list = append(list, d)
	}
	return list, nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
