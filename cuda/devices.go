package cuda

import (
	"fmt"
	"unsafe"

	"github.com/ebitengine/purego"
)

// Device attribute numbers (CUdevice_attribute) of the compute capability.
const (
	attrComputeCapabilityMajor = 75
	attrComputeCapabilityMinor = 76
)

// DeviceInfo describes one GPU as the driver reports it.
type DeviceInfo struct {
	Ordinal         int    // the number GetDevice, SpaceOn and DefaultStream take
	Name            string // the product name, such as "NVIDIA H200"
	Major, Minor    int    // the compute capability (9, 0 for sm_90)
	TotalMemory     int64  // bytes of device memory
	Multiprocessors int    // streaming multiprocessors
	// Peers[j] reports whether kernels and copies run by this device can
	// reach device j's memory directly (cuDeviceCanAccessPeer), over
	// NVLink or PCIe; Peers[Ordinal] is true. Copies between devices that
	// are not peers are staged through pinned host memory.
	Peers []bool
}

// Devices returns every GPU the driver reports, by ordinal, with its peer
// access matrix. It reads the driver's device attributes only: no context
// is created, so listing the devices costs no device memory.
func Devices() ([]DeviceInfo, error) {
	d, err := loadDriver()
	if err != nil {
		return nil, err
	}
	n, err := DeviceCount()
	if err != nil {
		return nil, err
	}
	handles := make([]int32, n)
	out := make([]DeviceInfo, n)
	for i := range n {
		if r, _, _ := purego.SyscallN(d.cuDeviceGet, uintptr(unsafe.Pointer(&handles[i])), uintptr(i)); r != 0 {
			return nil, d.err("cuDeviceGet", r, "", fmt.Sprintf("device %d", i))
		}
		h := uintptr(handles[i])
		info := DeviceInfo{Ordinal: i}
		var name [256]byte
		if r, _, _ := purego.SyscallN(d.cuDeviceGetName, uintptr(unsafe.Pointer(&name[0])), 256, h); r != 0 {
			return nil, d.err("cuDeviceGetName", r, "", fmt.Sprintf("device %d", i))
		}
		info.Name = cString(&name[0])
		var total uint64
		if r, _, _ := purego.SyscallN(d.cuDeviceTotalMem, uintptr(unsafe.Pointer(&total)), h); r != 0 {
			return nil, d.err("cuDeviceTotalMem_v2", r, "", fmt.Sprintf("device %d", i))
		}
		info.TotalMemory = int64(total)
		for _, a := range []struct {
			attr int
			p    *int
		}{{attrComputeCapabilityMajor, &info.Major}, {attrComputeCapabilityMinor, &info.Minor}, {attrMultiprocessorCount, &info.Multiprocessors}} {
			var v int32
			if r, _, _ := purego.SyscallN(d.cuDeviceGetAttribute, uintptr(unsafe.Pointer(&v)), uintptr(a.attr), h); r != 0 {
				return nil, d.err("cuDeviceGetAttribute", r, "", fmt.Sprintf("device %d, attribute %d", i, a.attr))
			}
			*a.p = int(v)
		}
		out[i] = info
	}
	for i := range n {
		out[i].Peers = make([]bool, n)
		for j := range n {
			if i == j {
				out[i].Peers[j] = true
				continue
			}
			can, err := canAccessPeer(d, handles[i], handles[j])
			if err != nil {
				return nil, err
			}
			out[i].Peers[j] = can
		}
	}
	return out, nil
}

// CanAccessPeer reports whether device i can reach device j's memory
// directly (cuDeviceCanAccessPeer); true when i == j. An ordinal outside
// [0, DeviceCount()) is an error matching ErrInvalidDevice.
func CanAccessPeer(i, j int) (bool, error) {
	a, err := GetDevice(i)
	if err != nil {
		return false, err
	}
	b, err := GetDevice(j)
	if err != nil {
		return false, err
	}
	if a == b {
		return true, nil
	}
	return canAccessPeer(a.drv, a.handle, b.handle)
}

func canAccessPeer(d *driver, from, to int32) (bool, error) {
	var can int32
	if r, _, _ := purego.SyscallN(d.cuDeviceCanAccessPeer, uintptr(unsafe.Pointer(&can)), uintptr(from), uintptr(to)); r != 0 {
		return false, d.err("cuDeviceCanAccessPeer", r, "", fmt.Sprintf("devices %d and %d", from, to))
	}
	return can != 0, nil
}
