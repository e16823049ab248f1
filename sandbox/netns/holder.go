package netns

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// readyLine is the holder's answer once loopback is up.
const readyLine = "ready"

func init() {
	if filepath.Base(os.Args[0]) == HolderName {
		os.Exit(holderMain())
	}
}

// holderMain brings loopback up, says so, and waits for stdin to close.
func holderMain() int {
	if err := loopbackUp(); err != nil {
		fmt.Printf("error: bringing up loopback: %v\n", err)
		return 1
	}
	fmt.Println(readyLine)
	_, _ = io.Copy(io.Discard, os.Stdin)
	return 0
}

// loopbackUp sets IFF_UP on lo (a new network namespace has it down).
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}
