package main

import (
	"flag"
	"fmt"

	"github.com/sdscgen/sdscgen/mlirgen"
)

// emitConfig holds the flags that choose what form the MLIR takes beyond
// --generic.
type emitConfig struct {
	// emit is "mlir" (the bundles) or "addresses" (each bundle's address
	// function, see mlirgen/addresses.go).
	emit string
	// frontendPool takes each pool from a %pool_base_addr argument
	// instead of sdscbundle.device_mem_allocate.
	frontendPool bool
}

func (c *emitConfig) register(fs *flag.FlagSet) {
	fs.StringVar(&c.emit, "emit", "mlir", "what to emit per bundle: `mlir` (the bundle) or addresses (a func/arith/affine function returning every sdsc_execute operand address; -o writes DIR/<bundle>/addresses.mlir)")
	fs.BoolVar(&c.frontendPool, "frontend-pool-allocation", false, "take each bundle's pool as a last %pool_base_addr argument instead of allocating it (torch-spyre FRONTEND_POOL_ALLOCATION)")
}

func (c *emitConfig) validate() error {
	switch c.emit {
	case "mlir", "addresses":
		return nil
	}
	return usageError{fmt.Sprintf("--emit=%s: want mlir or addresses", c.emit)}
}

func (c *emitConfig) apply(o *mlirgen.Options) {
	o.Addresses = c.emit == "addresses"
	o.FrontendPoolAllocation = c.frontendPool
}

// fileName is the per-bundle file name under -o DIR/<bundle>/.
func (c *emitConfig) fileName() string {
	if c.emit == "addresses" {
		return "addresses.mlir"
	}
	return "bundle.mlir"
}
