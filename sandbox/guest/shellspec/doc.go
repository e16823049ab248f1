// Package shellspec runs the Oils project's shell spec cases (spec/*.test.sh
// of oils-for-unix/oils) against the sandbox guest's shell and against the
// host's bash, and compares the two: same standard output and same exit
// status is a match.
//
// The spec files are not part of this repository. The test reads them from
// ../shared/shellcompat/oils-spec relative to the module root and skips when
// they are absent (fails under PTC_REQUIRE_TOOLS=1).
//
//	*.test.sh ──Parse──▶ []Case ──┬─▶ bash -c CODE        (helpers on PATH: spechelper)
//	                              └─▶ guest (ptcspec tag) (helpers as builtins)
//	                                        │
//	                              compare stdout + status ──▶ per-file match rate
//
// The cases call small helper programs (argv.py, printenv.py,
// stdout_stderr.py, read_from_fd.py) that Oils writes in Python. Helpers
// holds our own Go versions: the spechelper command serves them to bash,
// and a guest built with the ptcspec build tag has them as builtins, so
// both shells see the same helpers.
package shellspec
