// Package jsbench is the set of JavaScript workloads run_code is measured
// on against Node: the shapes programs write to reshape tool output
// (parsing and filtering JSON, sorting records, counting with a Map,
// regexp loops, joining, stringifying, building a report with += or
// template literals). Each workload is one text both engines run, timed
// inside the program so that neither engine's start counts; Measure runs
// the two interleaved in the same process and compares their results
// byte for byte.
//
// ptc's BenchmarkPostProcessing (go test -bench) and `ptc bench` (package
// bench) both run this list, so the two report the same jobs.
package jsbench
