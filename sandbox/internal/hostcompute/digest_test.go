package hostcompute

import (
	"bytes"
	"context"
	"crypto/md5"
	"crypto/sha256"
	"crypto/sha512"
	"encoding"
	"hash"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/ptc-dev/ptc/sandbox/proto"
)

// oneMemory is (module (memory (export "memory") 1)): 64 KiB to test on.
var oneMemory = []byte("\x00asm\x01\x00\x00\x00\x05\x03\x01\x00\x01\x07\x0a\x01\x06memory\x02\x00")

func memory(t *testing.T) api.Memory {
	t.Helper()
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	t.Cleanup(func() { rt.Close(ctx) })
	mod, err := rt.Instantiate(ctx, oneMemory)
	if err != nil {
		t.Fatal(err)
	}
	return mod.Memory()
}

func encoded(t *testing.T, b encoding.BinaryMarshaler) []byte {
	t.Helper()
	s, err := b.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// stateHash is a hash that can be saved and restored, as the guest's are.
type stateHash interface {
	hash.Hash
	encoding.BinaryMarshaler
	encoding.BinaryUnmarshaler
}

func TestAStepAddsTheDataToTheGuestsHash(t *testing.T) {
	mem := memory(t)
	data := bytes.Repeat([]byte("ptc "), 5000)
	for _, tc := range []struct {
		name string
		algo uint32
		new  func() hash.Hash
	}{
		{"md5 continues where the guest left off", proto.DigestMD5, md5.New},
		{"sha256 continues where the guest left off", proto.DigestSHA256, sha256.New},
		{"sha512 continues where the guest left off", proto.DigestSHA512, sha512.New},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := tc.new().(stateHash)
			h.Write([]byte("a prefix of odd length"))
			st := encoded(t, h)
			mem.Write(0, st)
			mem.Write(1024, data)
			n := Step(mem, tc.algo, 0, uint32(len(st)), 1024, uint32(len(data)), 40000, 1024)
			if n <= 0 {
				t.Fatalf("Step = %d", n)
			}
			next, _ := mem.Read(40000, uint32(n))
			got := tc.new().(stateHash)
			if err := got.UnmarshalBinary(next); err != nil {
				t.Fatal(err)
			}
			h.Write(data)
			if !bytes.Equal(got.Sum(nil), h.Sum(nil)) {
				t.Fatal("the host's step differs from hashing in place")
			}
		})
	}
}

func TestAStepRefusesWhatItCannotTrust(t *testing.T) {
	mem := memory(t)
	st := encoded(t, sha256.New().(encoding.BinaryMarshaler))
	mem.Write(0, st)
	sl := uint32(len(st))
	for _, tc := range []struct {
		name                                           string
		algo, state, stateLen, data, dataLen, out, cap uint32
	}{
		{"an unknown algorithm", 99, 0, sl, 1024, 10, 4096, 512},
		{"a state of another algorithm", proto.DigestMD5, 0, sl, 1024, 10, 4096, 512},
		{"a state that is garbage", proto.DigestSHA256, 1024, sl, 1024, 10, 4096, 512},
		{"a state over the cap", proto.DigestSHA256, 0, proto.DigestState + 1, 1024, 10, 4096, 512},
		{"data over the chunk cap", proto.DigestSHA256, 0, sl, 0, proto.DigestChunk + 1, 4096, 512},
		{"data outside memory", proto.DigestSHA256, 0, sl, 65000, 1000, 4096, 512},
		{"an answer buffer outside memory", proto.DigestSHA256, 0, sl, 1024, 10, 65530, 512},
		{"an answer buffer too small", proto.DigestSHA256, 0, sl, 1024, 10, 4096, 8},
	} {
		t.Run(tc.name+" is refused", func(t *testing.T) {
			if n := Step(mem, tc.algo, tc.state, tc.stateLen, tc.data, tc.dataLen, tc.out, tc.cap); n != -1 {
				t.Fatalf("Step = %d, want -1", n)
			}
		})
	}
}
