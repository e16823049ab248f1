// Package hoststub provides proto.HostModule for tests that run the shell
// guest under plain wazero and WASI, without the sandbox host: the host
// program functions refuse, digest and deflate are the real ones (they
// are pure). It imports only wazero, proto and hostcompute, so any test
// can use it.
package hoststub

import (
	"context"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/ptc-dev/ptc/sandbox/internal/hostcompute"
	"github.com/ptc-dev/ptc/sandbox/proto"
)

// noHostPrograms is what lookup and exec_start answer in Refusing.
const noHostPrograms = "host programs are not available in this test"

// Refusing instantiates proto.HostModule with functions that
// refuse, so the shell guest instantiates in a runtime without the
// sandbox host (tests that drive the guest with plain wazero and WASI).
func Refusing(ctx context.Context, rt wazero.Runtime) error {
	refuse := func(mod api.Module, out, outCap uint32) int32 {
		msg := noHostPrograms[:min(len(noHostPrograms), int(outCap))]
		if !mod.Memory().Write(out, []byte(msg)) {
			return -1
		}
		return -int32(len(msg))
	}
	_, err := rt.NewHostModuleBuilder(proto.HostModule).
		NewFunctionBuilder().WithFunc(func(_ context.Context, mod api.Module, _, _, out, outCap uint32) int32 {
		return refuse(mod, out, outCap)
	}).Export("lookup").
		NewFunctionBuilder().WithFunc(func(_ context.Context, mod api.Module, _, _, out, outCap uint32) int32 {
		return refuse(mod, out, outCap)
	}).Export("exec_start").
		NewFunctionBuilder().WithFunc(func(_, _, _, _, _, _, _, _, _, _ uint32) int32 { return -1 }).Export("exec_io").
		NewFunctionBuilder().WithFunc(func(uint32) int32 { return -1 }).Export("exec_close").
		NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(hostcompute.Digest), hostcompute.DigestParams, []api.ValueType{api.ValueTypeI32}).Export(proto.DigestFunc).
		NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(hostcompute.Deflate), hostcompute.DeflateParams, []api.ValueType{api.ValueTypeI32}).Export(proto.DeflateFunc).
		Instantiate(ctx)
	return err
}
