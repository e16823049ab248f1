// This file is ptc's, not mvdan.cc/sh's (see ../CHANGES.md). Bash lists an
// associative array in the order of its hash table; scripts (and their
// expected outputs) depend on it, so ${!A[@]}, ${A[@]} and declare -p
// follow it here too. Upstream sorted the values (not the keys), so keys
// and values came out in different orders, and iterated Go maps at
// random elsewhere.

package expand

import (
	"slices"
	"strings"
)

// bashAssocBuckets is ASSOC_HASH_BUCKETS in bash's assoc.h.
const bashAssocBuckets = 1024

// bashHash is bash's hash_string (hashlib.c): 32-bit FNV-1.
func bashHash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h *= 16777619
		h ^= uint32(s[i])
	}
	return h
}

// AssocKeys returns the keys of an associative array in bash's order:
// by hash bucket. Within one bucket bash puts the newest key first; the
// insertion order is not kept here, so those few fall back to key order.
func AssocKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		ba, bb := bashHash(a)&(bashAssocBuckets-1), bashHash(b)&(bashAssocBuckets-1)
		if ba != bb {
			return int(ba) - int(bb)
		}
		return strings.Compare(a, b)
	})
	return keys
}

// AssocValues returns the values in the order of AssocKeys; never nil.
func AssocValues(m map[string]string) []string {
	vals := make([]string, 0, len(m))
	for _, k := range AssocKeys(m) {
		vals = append(vals, m[k])
	}
	return vals
}
