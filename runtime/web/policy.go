package web

import (
	"fmt"
	"net"
	"net/netip"
	"syscall"
)

// cgnat is the carrier-grade NAT range, private in practice though not
// in netip's IsPrivate.
var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// publicAddr reports why ip is not a public unicast address, or "".
func publicAddr(ip netip.Addr) string {
	ip = ip.Unmap()
	switch {
	case ip.IsLoopback():
		return "a loopback address"
	case ip.IsPrivate() || cgnat.Contains(ip):
		return "a private address"
	case ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast():
		return "a link-local address"
	case ip.IsUnspecified():
		return "an unspecified address"
	case ip.IsMulticast() || ip.IsInterfaceLocalMulticast():
		return "a multicast address"
	case ip.Is4() && ip.As4()[0] == 0:
		return `an address in 0.0.0.0/8 ("this network")`
	case ip == netip.AddrFrom4([4]byte{255, 255, 255, 255}):
		return "the broadcast address"
	}
	return ""
}

// PrivateError is a fetch refused because it would reach a non-public
// address.
type PrivateError struct {
	Addr string
	Why  string
}

func (e *PrivateError) Error() string {
	return fmt.Sprintf("refused to connect to %s: it is %s, and web_fetch reaches only public addresses (allow private ones with %s=1 or \"allow_private\": true in the web section of $PTC_HOME/settings.json)", e.Addr, e.Why, EnvAllowPrivate)
}

// guard is a net.Dialer Control function: it sees the address a
// connection is about to reach, after DNS, for every dial including
// redirects', and refuses non-public ones.
func guard(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		host, _, splitErr := net.SplitHostPort(address)
		if splitErr != nil {
			return &PrivateError{Addr: address, Why: "not an IP address"}
		}
		a, perr := netip.ParseAddr(host)
		if perr != nil {
			return &PrivateError{Addr: address, Why: "not an IP address"}
		}
		ap = netip.AddrPortFrom(a, 0)
	}
	if why := publicAddr(ap.Addr()); why != "" {
		return &PrivateError{Addr: ap.Addr().String(), Why: why}
	}
	return nil
}
