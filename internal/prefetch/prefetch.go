// Package prefetch asks the CPU to start loading a cache line that the
// caller will read soon, without waiting for it: the one speed trick of
// the front end's name lookups (see frontend's builder.prefetch).
//
// Go has no portable prefetch: the runtime's is internal. A load whose
// value is used later (the portable alternative) holds up every
// instruction after it from retiring until the line arrives, so a lookup
// touched early still waited on memory whenever its miss outlasted the
// CPU's reorder window. A prefetch instruction retires at once. On
// amd64 and arm64 Line is one instruction in assembly; elsewhere it does
// nothing, which changes no result, only the time.
package prefetch
