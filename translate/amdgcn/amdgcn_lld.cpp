// The in-process linker (amdgcn.h): lld's ELF driver from Debian's liblld-22-dev, called
// instead of spawning ld.lld-22, which spends most of its time loading libLLVM (docs/translate.md,
// "Lowering and linking").  lld keeps its state in globals, so one link runs at a time, and a
// link that lld says cannot be followed by another turns this path off for the process: the
// caller then spawns the linker as before.
//
// lld ends the process on a fatal error (a truncated input, an output it cannot open) unless
// LLVM's crash recovery is on: in a workload that would be the workload's exit.  So it is on for
// the length of a link and off again after; a signal another thread takes meanwhile reaches that
// thread's own handler (LLVM's handler, finding no recovery context there, turns itself off and
// raises the signal again).
#include "lld/Common/Driver.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdio>
#include <mutex>
#include <string>

// amdgcn.h declares it for the C side (a C header: not included here).
extern "C" int amdgcn_lld_link(const char *const *argv, int argc, char *msg, size_t size);

LLD_HAS_DRIVER(elf)

namespace
{
std::mutex lld_lock;
bool lld_broken;
} // namespace

extern "C" int amdgcn_lld_link(const char *const *argv, int argc, char *msg, size_t size)
{
	std::lock_guard<std::mutex> hold(lld_lock);
	std::string out, err;
	llvm::raw_string_ostream out_os(out), err_os(err);

	if (lld_broken)
		return -1;
	llvm::CrashRecoveryContext::Enable();
	lld::Result r = lld::lldMain(llvm::ArrayRef<const char *>(argv, argc), out_os, err_os,
	                             {{lld::Gnu, &lld::elf::link}});
	llvm::CrashRecoveryContext::Disable();
	if (!r.canRunAgain)
		lld_broken = true;
	if (!r.retCode)
		return 0;
	// lld's first line says what went wrong ("ld.lld: error: ...").
	std::snprintf(msg, size, "%s", err.substr(0, err.find('\n')).c_str());
	return r.canRunAgain ? 1 : -1;
}
